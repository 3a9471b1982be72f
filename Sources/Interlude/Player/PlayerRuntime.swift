import Alarms
import AudioEngine
import AudioSession
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// What drives a `PlayerRuntime` from outside: the headless command line or
/// the full-screen UI. The runtime owns the loop; the host adds descriptors to
/// its `poll`, reacts to them, and redraws after each turn.
protocol PlayerHost: AnyObject {
    /// Descriptors to wait on besides the runtime's own (fd 0 for keys or commands).
    var extraDescriptors: [Int32] { get }
    /// Some of `extraDescriptors` are readable.
    func descriptorsReady(_ fds: [Int32])
    /// A signal the runtime does not handle itself (SIGWINCH, say). Return
    /// false to treat it as a request to stop (SIGINT, SIGTERM, SIGHUP).
    func handleSignal(_ number: Int32) -> Bool
    /// After every turn of the loop: redraw, if anything changed.
    func afterIteration()
    /// Wake at least this often (a progress display), or nil.
    var maximumWaitMilliseconds: Int? { get }
    /// True for the full-screen UI: the end of the queue is not the end.
    var keepsRunningWhenQueueEnds: Bool { get }
    /// True once the user asked to quit.
    var shouldQuit: Bool { get }
    /// Around a job-control stop (Ctrl-Z): give the terminal back, and take it again.
    func willStop()
    func didContinue()
    /// What the listener heard happen, before it is printed.
    func playbackEvent(_ event: PlaybackEvent)
}

extension PlayerHost {
    func willStop() {}
    func didContinue() {}
    func playbackEvent(_ event: PlaybackEvent) {}
}

/// The player: engine, session arbiter, the player's resume state machine,
/// alarms, and the staged scenario, on one thread, with the actions a user
/// can take. `interlude play` and the full-screen UI both run it.
///
/// Time: with ALSA output, the system clock (the loop sleeps in `poll` until
/// the next refill or timer); with the WAV and null sinks, a virtual clock
/// moved by the frames rendered, and rendering stops exactly at each timer's
/// deadline, so a whole scenario renders the same way every time.
final class PlayerRuntime {
    struct Configuration {
        var output: PlaybackEngine.Output
        var scenario = ScenarioOptions()
        /// The full-screen UI: an empty queue is allowed, and the end of the
        /// queue pauses rather than ends the run.
        var keepsRunningWhenQueueEnds = false
        /// Playback speed (pitch kept); positions stay in the files' own time.
        var speed = PlaybackSpeed.normal
        /// The zone clock-time alarms ring in. Headless play stages relative
        /// alarms only, so UTC serves there; the full-screen UI passes the local zone.
        var alarmTimeZone: TimeZoneRules = .utc
        /// Where alarms persist; nil keeps them in this run only (headless play).
        var alarmStore: AlarmStore?
        /// Open paused (a queue restored from the last run waits for the user).
        var startsPaused = false
    }

    let configuration: Configuration
    let printer: EventPrinter
    let engine: PlaybackEngine
    let clock: any Clock
    let arbiter: AudioSessionArbiter
    let controller: PlaybackController
    let player: PlayerSession
    /// Set on the frame clock (file sinks), nil with a real device.
    let frameClock: VirtualClock?
    let systemClock: SystemClock?
    let start: MonotonicInstant
    /// Signals reach the loop through a signalfd. Created before any thread
    /// starts, so the writer thread inherits the blocked mask.
    private let signals: SignalChannel

    private(set) var played = false
    private(set) var isSessionSuspended = false
    private var suspendDeadline: MonotonicInstant?
    private var continueDeadline: MonotonicInstant?
    private var lastDevice = 0
    private var warnedRealtime = false
    private var outputFailed = false
    private var interrupted = false
    private var alarmVoiceError = false
    private var createdScheduler: AlarmScheduler?
    private var call: Session?

    /// Opens the engine (the first playable file fixes the output format).
    /// Reports what went wrong and returns nil when nothing can play.
    /// `signals` must exist before the engine opens, so that its writer thread
    /// starts with them blocked; the full-screen player keeps one channel for
    /// all its runtimes, so no signal finds them unblocked between two.
    static func open(configuration: Configuration, paths: [String], printer: EventPrinter,
                     signals channel: SignalChannel) -> PlayerRuntime? {
        let engine = PlaybackEngine(paths: paths, output: configuration.output)
        engine.keepsOutputAtQueueEnd = configuration.keepsRunningWhenQueueEnds
        do {
            try engine.open()
        } catch {
            for event in engine.feeder.takeEvents() {
                if case .failed(let error) = event { printer.error("\(error.description) (skipped)") }
            }
            switch error {
            case .device:
                printer.error("\(error.description) (choose another device with --device NAME, "
                              + "or render with --output wav:PATH or --output null)")
            default:
                printer.error(error.description)
            }
            return nil
        }
        do { try engine.setSpeed(configuration.speed) } catch {
            printer.error(error.description)
            return nil
        }
        return PlayerRuntime(configuration: configuration, engine: engine, printer: printer, signals: channel)
    }

    private init(configuration: Configuration, engine: PlaybackEngine, printer: EventPrinter, signals: SignalChannel) {
        self.configuration = configuration
        self.engine = engine
        self.printer = printer
        self.signals = signals
        let scenario = configuration.scenario
        // The frame clock starts on a whole wall-clock second, so relative alarms
        // (kept in whole seconds) fall exactly where they were asked for.
        frameClock = engine.rendersOnFrameClock
            ? VirtualClock(wall: WallInstant(secondsSince1970: Int64(time(nil)))) : nil
        systemClock = frameClock == nil ? SystemClock() : nil
        let clock: any Clock = frameClock ?? systemClock!
        self.clock = clock
        let start = clock.monotonicNow
        self.start = start
        // The full-screen player runs one runtime after another (music, a book):
        // the event log's clock goes on from where the last one was.
        let before = printer.timeSource?() ?? 0
        printer.timeSource = { before + (clock.monotonicNow - start).seconds }

        arbiter = AudioSessionArbiter(clock: clock)
        controller = PlaybackController(engine: engine, clock: clock, printer: printer,
                                        smartRewind: SmartRewind(maxRewindSeconds: scenario.effectiveSmartRewind),
                                        fadeMilliseconds: scenario.fadeMilliseconds)
        let settings = ResumeSettings(suspendedResumeDelay: .milliseconds(Int((scenario.resumeDelay * 1000).rounded())),
                                      pauseFade: .milliseconds(scenario.fadeMilliseconds))
        player = PlayerSession(arbiter: arbiter, clock: clock, content: scenario.spoken ? .spokenAudio : .music,
                               settings: settings, sink: controller)
        controller.player = player
        player.onSessionEvent = { [printer] event in printer.emit(event) }
        stageScenario()
    }

    var format: AudioFormat { engine.format }

    // MARK: Alarms

    /// Created on first use; without a store, only alarms made in this run
    /// ring. Relative alarms need no zone, so UTC serves until one is set.
    var alarms: AlarmScheduler {
        if let createdScheduler { return createdScheduler }
        let scheduler = AlarmScheduler(clock: clock, timeZone: configuration.alarmTimeZone, arbiter: arbiter, store: configuration.alarmStore)
        scheduler.onEvent = { [unowned self, unowned scheduler] event in
            printer.emit(event)
            switch event {
            case .ringingBegan(let ids):
                // An alarm that rings while the session is suspended without the
                // process being stopped (the `s` testing key: only the `a` key can
                // ring one then, as no timer fires) wakes it, as the system wakes
                // a suspended app for an interruption: the player gets its late
                // `began` with wasSuspended, and the single delayed resume follows.
                if isSessionSuspended { continueSession() }
                let sound = ids.first.flatMap { id in scheduler.alarms.first { $0.id == id }?.sound } ?? .default
                startAlarmVoice(sound)
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

    var hasAlarmScheduler: Bool { createdScheduler != nil }

    private func startAlarmVoice(_ sound: AlarmSound) {
        var source: VoiceSource = ToneVoice()
        if case .file(let path) = sound {
            do throws(DecoderError) { source = try FileVoice(path: path, format: format) } catch {
                if !alarmVoiceError { printer.error("\(error.description) (using the built-in tone)") }
                alarmVoiceError = true
            }
        }
        engine.startVoice(source, exclusive: true, fadeFrames: format.frames(forSeconds: 0.005))
    }

    // MARK: The staged scenario

    private func at(_ seconds: Double, _ action: @escaping () -> Void) {
        _ = clock.schedule(at: start + .milliseconds(Int((seconds * 1000).rounded())), action)
    }

    private func stageScenario() {
        let scenario = configuration.scenario
        suspendDeadline = scenario.suspendAt.map { start + .milliseconds(Int(($0 * 1000).rounded())) }
        continueDeadline = scenario.continueAt.map { start + .milliseconds(Int(($0 * 1000).rounded())) }
        if let alarmIn = scenario.alarmIn {
            at(0) { [unowned self] in
                addAlarm(after: .milliseconds(Int((alarmIn * 1000).rounded())), label: "scenario alarm",
                         ringSeconds: scenario.alarmRing, sound: scenario.alarmSound)
            }
        }
        for notifyAt in scenario.notifyAt {
            at(notifyAt) { [unowned self] in notificationChime() }
        }
        if let callAt = scenario.callAt, let callEnd = scenario.callEnd {
            at(callAt) { [unowned self] in if call == nil { toggleCall() } }
            at(callEnd) { [unowned self] in if call != nil { toggleCall() } }
        }
    }

    // MARK: User actions

    func play() { player.play() }
    func pause() { player.pause() }
    func togglePlayPause() { if player.isPlaying { player.pause() } else { player.play() } }

    /// An alarm `delay` from now (relative: an exact monotonic deadline).
    @discardableResult
    func addAlarm(after delay: Duration, label: String, ringSeconds: Double = 60, sound: String? = nil) -> Alarm {
        alarms.add(after: delay) { alarm in
            alarm.label = label
            alarm.ringTimeoutSeconds = max(1, Int(ringSeconds.rounded()))
            if let sound { alarm.sound = .file(path: sound) }
        }
    }

    /// The testing key: an alarm that rings now.
    func fireTestAlarm() { addAlarm(after: .zero, label: "test alarm") }
    func snoozeAlarm() { createdScheduler?.snooze() }
    func dismissAlarm() { createdScheduler?.dismiss() }

    /// A short chime from a notification session: the music ducks under it.
    func notificationChime() {
        let chime = arbiter.openSession(SessionConfiguration(category: .ambient, priorityClass: .notification))
        try? chime.setActive(true)
        printer.emit("notification")
        engine.startVoice(ToneVoice(repeats: false), exclusive: false, gain: 1,
                          fadeFrames: format.frames(forSeconds: 0.005))
        // The chime is one pattern cycle long; the session ends with it.
        _ = clock.schedule(after: .seconds(ToneVoice.cycleSeconds)) { [arbiter] in
            try? chime.setActive(false, notifyOthersOnDeactivation: true)
            arbiter.closeSession(chime.id)
        }
    }

    /// Starts a simulated call, or ends the one in progress.
    func toggleCall() {
        if let call {
            printer.emit("callEnded")
            try? call.setActive(false, notifyOthersOnDeactivation: true)
            arbiter.closeSession(call.id)
            self.call = nil
        } else {
            let call = arbiter.openSession(SessionConfiguration(category: .playback, priorityClass: .call))
            self.call = call
            printer.emit("callStarted")
            try? call.setActive(true)
        }
    }

    var isCallActive: Bool { call != nil }

    /// Suspends the session as a stopped process would be (no timer fires and
    /// nothing sounds), without stopping the process; again to continue.
    func toggleSessionSuspended() {
        if isSessionSuspended { continueSession() } else { suspendSession() }
    }

    private func suspendSession() {
        guard !isSessionSuspended else { return }
        isSessionSuspended = true
        printer.emit("suspended")
        arbiter.processWillSuspend()
        engine.pauseMedia(fadeFrames: controller.fadeFrames)
    }

    private func continueSession() {
        guard isSessionSuspended else { return }
        isSessionSuspended = false
        printer.emit("continued")
        arbiter.processDidContinue()
    }

    /// The route-lost path without losing the device: the player pauses with
    /// `routeDisconnected` and waits for the user, as when the device goes away.
    func simulateDeviceLoss() {
        printer.emit("deviceLostSimulated")
        arbiter.outputDeviceLost()
    }

    /// Ctrl-Z: release the device, really stop, and on `fg` come back with
    /// the late `began` (wasSuspended) of the suspension.
    func jobControlStop(host: PlayerHost?) {
        printer.emit("suspending")
        host?.willStop()
        arbiter.processWillSuspend()
        engine.suspendOutput()
        kill(getpid(), SIGSTOP)
        // Here again after SIGCONT.
        do { try engine.resumeOutput() } catch { printer.error(error.description) }
        host?.didContinue()
        printer.emit("continued")
        arbiter.processDidContinue()
    }

    // MARK: The queue

    /// The queue: every file, in play order (those played included).
    var queue: [String] { engine.feeder.paths }

    /// The queue entry the listener is in, and the seconds heard of it.
    var current: (index: Int, path: String, elapsed: Double, duration: Double?)? {
        guard let (track, offset) = engine.heardTrack else { return nil }
        return (track.index, track.path, format.seconds(forFrames: max(0, offset)),
                track.expectedFrames.map(format.seconds(forFrames:)))
    }

    /// True while the music plays (not paused by the user, an interruption or the queue's end).
    var isPlaying: Bool { player.isPlaying && !engine.isMediaStopped }

    /// Before `run`: start at queue entry `index`, `seconds` into it.
    @discardableResult
    func start(atQueueIndex index: Int, seconds: Double) -> Bool {
        engine.start(atQueueIndex: index, offsetFrames: format.frames(forSeconds: seconds))
    }

    /// Plays `paths` from entry `index`: they replace what was queued after the
    /// current entry, which stays behind them for `previous()`.
    func playQueue(_ paths: [String], startAt index: Int) {
        guard !paths.isEmpty else { return }
        let here = current?.index ?? -1
        engine.feeder.replaceQueue(after: here, with: paths)
        jump(toQueueIndex: here + 1 + max(0, min(index, paths.count - 1)), seconds: 0, play: true)
    }

    /// Adds files to the end of the queue.
    func enqueue(_ paths: [String]) {
        engine.enqueue(paths)
        printer.emit("enqueued") { $0.add("count", paths.count) }
    }

    func next() {
        guard let current else { return }
        guard current.index + 1 < queue.count else { return }
        jump(toQueueIndex: current.index + 1, seconds: 0, play: true)
    }

    /// The previous entry, or the start of this one after its first 3 seconds (as cmus and mpv do).
    func previous() {
        guard let current else { return }
        let target = current.elapsed > 3 || current.index == 0 ? current.index : current.index - 1
        jump(toQueueIndex: target, seconds: 0, play: true)
    }

    /// Seeks within the current entry; past its end goes to the next one.
    func seek(bySeconds delta: Double) {
        guard let current else { return }
        let target = max(0, current.elapsed + delta)
        if let duration = current.duration, target >= duration {
            guard current.index + 1 < queue.count else { return }
            jump(toQueueIndex: current.index + 1, seconds: 0, play: false)
            return
        }
        jump(toQueueIndex: current.index, seconds: target, play: false)
    }

    /// Moves to queue entry `index`, `seconds` into it. `play`: also start
    /// playing when paused (choosing a track plays it; a seek keeps the state).
    func jump(toQueueIndex index: Int, seconds: Double, play: Bool) {
        controller.jump(toQueueIndex: index, offsetFrames: format.frames(forSeconds: seconds))
        if play && !player.isPlaying { player.play() }
    }

    /// Ends the run at the end of this turn of the loop.
    func requestStop() { interrupted = true }

    // MARK: The loop

    /// Runs until the queue ends (unless the host keeps running), the host
    /// quits, or a signal stops it. Returns the exit status.
    func run(host: PlayerHost) -> Int32 {
        if configuration.startsPaused {
            // Stopped before the first frame: the first play resumes from here.
            engine.pauseMedia(fadeFrames: 1)
        } else {
            player.play()
        }
        let timer = MonotonicTimerDescriptor()
        let wallClock = WallClockChangeDescriptor()
        while !engine.isFinished || host.keepsRunningWhenQueueEnds {
            // A timer that cannot be made or armed would never wake the loop.
            if let failure = timer.failure ?? wallClock.failure {
                printer.error(failure.description)
                return 1
            }
            if host.shouldQuit { interrupted = true }
            if interrupted { break }
            // Simulated suspension: the process keeps running but, as when stopped,
            // no timer fires and nothing sounds until it continues.
            if let deadline = suspendDeadline, clock.monotonicNow >= deadline {
                suspendDeadline = nil
                suspendSession()
            }
            if let deadline = continueDeadline, isSessionSuspended, clock.monotonicNow >= deadline {
                continueDeadline = nil
                continueSession()
            }
            if engine.isFinished {
                // The end of the queue in a host that stays: wait for the user.
                waitForEvents(host: host, timer: timer, wallClock: wallClock, refillWait: -1)
                host.afterIteration()
                continue
            }

            // On the frame clock, render in 10 ms slices so events carry the time
            // of the slice they happened in, and stop exactly at timer deadlines.
            var maxFrames = frameClock == nil ? 4096 : max(1, format.rate / 100)
            if let frameClock {
                // Timers due now fire before the next frame is rendered.
                if !isSessionSuspended { frameClock.runDueTimers() }
                var next = isSessionSuspended ? continueDeadline : frameClock.nextTimerDeadline
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
                if isSessionSuspended { frameClock.passTimeWhileStopped(elapsed) } else { frameClock.advance(by: elapsed) }
            }
            handle(events, host: host)

            if let frameClock {
                // Nothing more can happen by itself: paused with no timer left.
                let idle = engine.isMediaStopped && !player.isPlaying && frameClock.pendingTimerCount == 0
                    && createdScheduler?.ringing == nil && !isSessionSuspended && !engine.isVoiceSounding
                if idle && !host.keepsRunningWhenQueueEnds {
                    for event in engine.finish() { printer.emit(event) }
                }
                if idle && host.keepsRunningWhenQueueEnds {
                    // The full-screen UI on a file sink: only the user can change
                    // anything now, so sleep until a key or a signal instead of spinning;
                    // the host draws what this turn changed first.
                    host.afterIteration()
                    waitForEvents(host: host, timer: timer, wallClock: wallClock, refillWait: -1)
                } else {
                    pollWithoutWaiting(host: host)
                }
            } else {
                waitForEvents(host: host, timer: timer, wallClock: wallClock, refillWait: engine.suggestedWaitMilliseconds)
            }
            takeSignals(host: host)
            host.afterIteration()
        }
        if interrupted {
            engine.stop()
            printer.emit("stopped")
        }
        if outputFailed { return 1 }
        printer.emit("summary") { $0.add("automaticResumes", player.totalAutomaticResumeAttempts) }
        return played ? 0 : 1
    }

    private func handle(_ events: [PlaybackEvent], host: PlayerHost) {
        for event in events {
            host.playbackEvent(event)
            switch event {
            case .trackStarted:
                played = true
            case .mediaStopped(let position):
                controller.mediaStopped(at: position)
                if engine.isAtQueueEnd {
                    printer.emit("queueEnded")
                    // As if the user paused: nothing resumes by itself.
                    if player.isPlaying { player.pause() }
                }
            case .outputFailed:
                outputFailed = true
            case .deviceLost:
                arbiter.outputDeviceLost()
            default:
                break
            }
            printer.emit(event)
            if case .deviceLost = event {
                printer.error("playback paused; when the device is back, type 'play' (or press space in the player)")
            }
        }
    }

    /// Sleeps in poll until a refill is due (-1: none needed), a timer (timerfd),
    /// a signal, the host's input, or a wall-clock change.
    private func waitForEvents(host: PlayerHost, timer: MonotonicTimerDescriptor, wallClock: WallClockChangeDescriptor,
                               refillWait: Int) {
        var wait = refillWait
        if let limit = host.maximumWaitMilliseconds { wait = wait < 0 ? limit : min(wait, limit) }
        let now = clock.monotonicNow
        var next: Duration? = isSessionSuspended ? nil : systemClock?.timeUntilNextTimer
        for deadline in [suspendDeadline, continueDeadline].compactMap({ $0 }) {
            let until = deadline - now
            next = next.map { min($0, until) } ?? until
        }
        if frameClock != nil {
            // Virtual time does not pass while waiting: only the host can wake us.
            next = nil
        }
        timer.arm(after: next.map { max(.zero, $0) })
        let extra = host.extraDescriptors
        let ready = waitReadable([signals.fd, timer.fd, wallClock.fd] + extra, timeoutMilliseconds: wait)
        if ready.contains(timer.fd) { timer.acknowledge() }
        if ready.contains(wallClock.fd) && wallClock.clockWasSet() {
            printer.emit("wallClockChanged")
            createdScheduler?.wallClockDidChange()
        }
        if let systemClock {
            if arbiter.checkForSystemSleep() { createdScheduler?.wallClockDidChange() }
            if !isSessionSuspended { systemClock.runDueTimers() }
        }
        let hostReady = ready.filter { extra.contains($0) }
        if !hostReady.isEmpty { host.descriptorsReady(hostReady) }
    }

    /// On the frame clock nothing waits, but the host's input is still read.
    private func pollWithoutWaiting(host: PlayerHost) {
        let extra = host.extraDescriptors
        guard !extra.isEmpty else { return }
        let ready = waitReadable(extra, timeoutMilliseconds: 0)
        if !ready.isEmpty { host.descriptorsReady(ready) }
    }

    private func takeSignals(host: PlayerHost) {
        for signal in signals.take() {
            switch signal {
            case SIGTSTP: jobControlStop(host: host)
            case SIGCONT: break  // Already handled where the stop returned.
            default: if !host.handleSignal(signal) { interrupted = true }
            }
        }
    }
}
