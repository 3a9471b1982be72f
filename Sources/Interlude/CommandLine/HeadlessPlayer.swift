import Alarms
import AudioEngine
import AudioSession
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// The main loop of `interlude play`: the engine, the session arbiter, the
/// player state machine, alarms and the staged scenario, on one thread.
///
/// Time: with ALSA output, the system clock (the loop sleeps in `poll` until
/// the next refill or timer); with the WAV and null sinks, a virtual clock
/// moved by the frames rendered, and rendering stops exactly at each timer's
/// deadline, so a whole scenario renders the same way every time.
final class HeadlessPlayer {
    let options: PlayCommand.Options
    let printer: EventPrinter
    private var progress: ProgressLine?

    init(options: PlayCommand.Options) {
        self.options = options
        printer = EventPrinter(json: options.jsonEvents)
        if isatty(2) != 0 && !options.jsonEvents { progress = ProgressLine() }
    }

    func run() -> Int32 {
        // Before any thread starts, so the writer thread inherits the blocked mask.
        let signals = SignalChannel([SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT])
        let engine = PlaybackEngine(paths: options.files, output: options.output)
        do {
            try engine.open()
        } catch {
            report(engine.feeder.takeEvents())
            switch error {
            case .device:
                printer.error("\(error.description) (choose another device with --device NAME, "
                              + "or render with --output wav:PATH or --output null)")
            default:
                printer.error(error.description)
            }
            return 1
        }
        let format = engine.format
        let scenario = options.scenario
        let printer = self.printer

        // The frame clock starts on a whole wall-clock second, so relative alarms
        // (kept in whole seconds) fall exactly where they were asked for.
        let frameClock: VirtualClock? = engine.rendersOnFrameClock
            ? VirtualClock(wall: WallInstant(secondsSince1970: Int64(time(nil)))) : nil
        let systemClock: SystemClock? = frameClock == nil ? SystemClock() : nil
        let clock: any Clock = frameClock ?? systemClock!
        let start = clock.monotonicNow
        printer.timeSource = { (clock.monotonicNow - start).seconds }

        let arbiter = AudioSessionArbiter(clock: clock)
        let controller = PlaybackController(engine: engine, clock: clock, printer: printer,
                                            smartRewind: SmartRewind(maxRewindSeconds: scenario.effectiveSmartRewind),
                                            fadeMilliseconds: scenario.fadeMilliseconds)
        let settings = ResumeSettings(suspendedResumeDelay: .milliseconds(Int((scenario.resumeDelay * 1000).rounded())),
                                      pauseFade: .milliseconds(scenario.fadeMilliseconds))
        let player = PlayerSession(arbiter: arbiter, clock: clock, content: scenario.spoken ? .spokenAudio : .music,
                                   settings: settings, sink: controller)
        controller.player = player
        player.onSessionEvent = { [printer] event in printer.emit(event) }

        // Created on first use: only staged alarms ring in headless play. They are
        // relative, so UTC serves and no zone file is read.
        var alarmVoiceError = false
        var createdScheduler: AlarmScheduler?
        func alarms() -> AlarmScheduler {
            if let createdScheduler { return createdScheduler }
            let scheduler = AlarmScheduler(clock: clock, timeZone: .utc, arbiter: arbiter, store: nil)
            scheduler.onEvent = { [printer, unowned scheduler] event in
                printer.emit(event)
                switch event {
                case .ringingBegan(let ids):
                    let sound = ids.first.flatMap { id in scheduler.alarms.first { $0.id == id }?.sound } ?? .default
                    var source: VoiceSource = ToneVoice()
                    if case .file(let path) = sound {
                        do throws(DecoderError) { source = try FileVoice(path: path, format: format) } catch {
                            if !alarmVoiceError { printer.error("\(error.description) (using the built-in tone)") }
                            alarmVoiceError = true
                        }
                    }
                    engine.startVoice(source, exclusive: true, fadeFrames: format.frames(forSeconds: 0.005))
                case .ringingEnded:
                    engine.stopVoice(fadeFrames: format.frames(forSeconds: 0.01))
                default:
                    break
                }
            }
            scheduler.start()
            createdScheduler = scheduler
            return scheduler
        }
        player.play()

        // The staged scenario.
        var suspended = false
        var suspendDeadline = scenario.suspendAt.map { start + .milliseconds(Int(($0 * 1000).rounded())) }
        var continueDeadline = scenario.continueAt.map { start + .milliseconds(Int(($0 * 1000).rounded())) }
        func at(_ seconds: Double, _ action: @escaping () -> Void) {
            _ = clock.schedule(at: start + .milliseconds(Int((seconds * 1000).rounded())), action)
        }
        if let alarmIn = scenario.alarmIn {
            at(0) {
                alarms().add(after: .milliseconds(Int((alarmIn * 1000).rounded()))) { alarm in
                    alarm.label = "scenario alarm"
                    alarm.ringTimeoutSeconds = max(1, Int(scenario.alarmRing.rounded()))
                    if let sound = scenario.alarmSound { alarm.sound = .file(path: sound) }
                }
            }
        }
        for notifyAt in scenario.notifyAt {
            at(notifyAt) {
                let chime = arbiter.openSession(SessionConfiguration(category: .ambient, priorityClass: .notification))
                try? chime.setActive(true)
                printer.emit("notification")
                engine.startVoice(ToneVoice(repeats: false), exclusive: false, gain: 1,
                                  fadeFrames: format.frames(forSeconds: 0.005))
                // The chime is one pattern cycle long; the session ends with it.
                _ = clock.schedule(after: .seconds(ToneVoice.cycleSeconds)) {
                    try? chime.setActive(false, notifyOthersOnDeactivation: true)
                    arbiter.closeSession(chime.id)
                }
            }
        }
        if let callAt = scenario.callAt, let callEnd = scenario.callEnd {
            let call = arbiter.openSession(SessionConfiguration(category: .playback, priorityClass: .call))
            at(callAt) {
                printer.emit("callStarted")
                try? call.setActive(true)
            }
            at(callEnd) {
                printer.emit("callEnded")
                try? call.setActive(false, notifyOthersOnDeactivation: true)
            }
        }

        let input = StandardInputCommands()
        let timer = MonotonicTimerDescriptor()
        let wallClock = WallClockChangeDescriptor()
        var played = false
        var interrupted = false
        var lastDevice = 0
        var warnedRealtime = false
        var outputFailed = false

        /// Ctrl-Z: release the device, really stop, and on `fg` come back with
        /// the late `began` (wasSuspended) of the suspension.
        func jobControlStop() {
            printer.emit("suspending")
            progress?.clear()
            arbiter.processWillSuspend()
            engine.suspendOutput()
            kill(getpid(), SIGSTOP)
            // Here again after SIGCONT.
            do { try engine.resumeOutput() } catch { printer.error(error.description) }
            printer.emit("continued")
            arbiter.processDidContinue()
        }

        func handle(_ command: StandardInputCommands.Command?, _ word: String) -> Bool {
            switch command {
            case .play: player.play()
            case .pause: player.pause()
            case .toggle: if player.isPlaying { player.pause() } else { player.play() }
            case .dismiss: createdScheduler?.dismiss()
            case .snooze: createdScheduler?.snooze()
            case .quit: return false
            case nil: printer.error("unknown command '\(word)' (play, pause, toggle, dismiss, snooze, quit)")
            }
            return true
        }

        while !engine.isFinished {
            // Simulated suspension: the process keeps running but, as when stopped,
            // no timer fires and nothing sounds until it continues.
            if let deadline = suspendDeadline, clock.monotonicNow >= deadline {
                suspendDeadline = nil
                suspended = true
                printer.emit("suspended")
                arbiter.processWillSuspend()
                engine.pauseMedia(fadeFrames: controller.fadeFrames)
            }
            if let deadline = continueDeadline, suspended, clock.monotonicNow >= deadline {
                continueDeadline = nil
                suspended = false
                printer.emit("continued")
                arbiter.processDidContinue()
            }

            // On the frame clock, render in 10 ms slices so events carry the time
            // of the slice they happened in, and stop exactly at timer deadlines.
            var maxFrames = frameClock == nil ? 4096 : max(1, format.rate / 100)
            if let frameClock {
                // Timers due now fire before the next frame is rendered.
                if !suspended { frameClock.runDueTimers() }
                var next = suspended ? continueDeadline : frameClock.nextTimerDeadline
                if let suspendDeadline, next.map({ suspendDeadline < $0 }) ?? true { next = suspendDeadline }
                if let next {
                    // Integer arithmetic: a float product like 0.01 * 44100 rounds up to 442.
                    let (seconds, attoseconds) = (next - frameClock.monotonicNow).components
                    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
                    let frames = Int((nanoseconds * Int64(format.rate) + 999_999_999) / 1_000_000_000)
                    maxFrames = max(1, min(maxFrames, frames))
                }
            }
            let events: [PlaybackEvent]
            do { events = try engine.pump(maxFrames: maxFrames) } catch {
                printer.error(error.description)
                return 1
            }
            if engine.realtimeRefused && !warnedRealtime {
                warnedRealtime = true
                printer.error("real-time scheduling (SCHED_FIFO) was refused; the audio thread runs at normal "
                              + "priority and may underrun under load")
            }
            // The frame clock moves by what was rendered before the events are
            // reported, so each carries the time the listener reached it.
            if let frameClock {
                let device = engine.deviceFramesWritten
                let elapsed = Duration.nanoseconds(Int64((Double(device - lastDevice) / Double(format.rate) * 1e9).rounded()))
                lastDevice = device
                if suspended { frameClock.passTimeWhileStopped(elapsed) } else { frameClock.advance(by: elapsed) }
            }
            for event in events {
                switch event {
                case .trackStarted(let index, _):
                    played = true
                    progress?.track = engine.feeder.tracks.first { $0.index == index }
                case .mediaStopped(let position):
                    controller.mediaStopped(at: position)
                case .outputFailed:
                    outputFailed = true
                case .deviceLost:
                    progress?.clear()
                    arbiter.outputDeviceLost()
                default:
                    break
                }
                printer.emit(event)
                if case .deviceLost = event {
                    printer.error("playback paused; when the device is back, type 'play' (or press space in the player)")
                }
            }
            progress?.update(heard: engine.heardPosition, format: format)

            if let frameClock {
                // Nothing more can happen: paused for good with no timer left.
                if engine.isMediaStopped && !player.isPlaying && frameClock.pendingTimerCount == 0
                    && createdScheduler?.ringing == nil && !suspended && !engine.isVoiceSounding {
                    for event in engine.finish() { printer.emit(event) }
                }
            } else if let systemClock {
                // Sleep in poll until a refill is due (-1: none needed), a timer (timerfd),
                // a signal, a command, or a wall-clock change.
                let wait = engine.suggestedWaitMilliseconds
                var next = suspended ? nil : systemClock.timeUntilNextTimer
                for deadline in [suspendDeadline, continueDeadline].compactMap({ $0 }) {
                    let until = deadline - systemClock.monotonicNow
                    next = next.map { min($0, until) } ?? until
                }
                timer.arm(after: next.map { max(.zero, $0) })
                var fds = [signals.fd, timer.fd, wallClock.fd]
                // A terminal is read only while we are its foreground job: a background
                // read would stop the process with SIGTTIN.
                if input.isOpen, isatty(0) == 0 || tcgetpgrp(0) == getpgrp() { fds.append(0) }
                let ready = waitReadable(fds, timeoutMilliseconds: wait)
                if ready.contains(timer.fd) { timer.acknowledge() }
                if ready.contains(wallClock.fd) && wallClock.clockWasSet() {
                    printer.emit("wallClockChanged")
                    createdScheduler?.wallClockDidChange()
                }
                if arbiter.checkForSystemSleep() { createdScheduler?.wallClockDidChange() }
                if !suspended { systemClock.runDueTimers() }
                if ready.contains(0) {
                    for (command, word) in input.take() where !handle(command, word) {
                        interrupted = true
                    }
                }
            }
            for signal in signals.take() {
                switch signal {
                case SIGTSTP: jobControlStop()
                case SIGCONT: break  // Already handled where the stop returned.
                default: interrupted = true
                }
            }
            if interrupted {
                engine.stop()
                break
            }
        }
        progress?.clear()
        if interrupted { printer.emit("stopped") }
        if outputFailed { return 1 }
        printer.emit("summary") { $0.add("automaticResumes", player.totalAutomaticResumeAttempts) }
        return played ? 0 : 1
    }

    private func report(_ events: [TrackFeeder.Event]) {
        for event in events {
            if case .failed(let error) = event { printer.error("\(error.description) (skipped)") }
        }
    }
}

/// A one-line progress display on stderr: elapsed / total and a bar.
final class ProgressLine {
    var track: TrackFeeder.Track?
    private var lastText = ""
    private var lastUpdate = 0.0

    func update(heard: Int, format: AudioFormat) {
        let now = monotonicSeconds()
        // At most four redraws a second.
        guard now - lastUpdate >= 0.25, let track else { return }
        lastUpdate = now
        let elapsed = format.seconds(forFrames: max(0, heard - track.startFrame))
        let total = track.expectedFrames.map(format.seconds(forFrames:))
        let width = 30
        var bar = ""
        if let total, total > 0 {
            let filled = min(width, Int(Double(width) * elapsed / total))
            bar = " [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
        }
        let name = track.path.split(separator: "/").last.map(String.init) ?? track.path
        let text = "\(formatTime(elapsed)) / \(total.map(formatTime) ?? "?")\(bar) \(name)"
        guard text != lastText else { return }
        lastText = text
        writeStandardError("\r\u{1B}[K" + text)
    }

    func clear() {
        guard !lastText.isEmpty else { return }
        writeStandardError("\r\u{1B}[K")
        lastText = ""
    }
}
