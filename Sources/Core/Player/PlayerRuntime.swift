import Streams
import SpokenAudio
import LoopIO
import LibraryIO
import Alarms
import AudioDecoding
import AudioEngine
import AudioSession
import Books
import InterludeCore
import PlayerModel
import ReplayGain
#if canImport(Glibc)
import Glibc
#endif

/// The player: engine, session arbiter, the player's resume state machine,
/// alarms, and the staged scenario, on one thread, with the actions a user
/// can take. `interlude play` and the full-screen UI both run it.
///
/// This file holds the loop; the rest is in files named for it: every
/// command a front end sends (`+Commands`, the one dispatcher), what front
/// ends read (`+Snapshot`, `+Session`), the queue, alarms, volume and speed,
/// the staged scenario and the simulated interruptions. What happens goes
/// out as `PlayerEvent`s on `events`.
///
/// Time: with ALSA output, the system clock (the loop sleeps in `poll` until
/// the next refill or timer); with the WAV and null sinks, a virtual clock
/// moved by the frames rendered, and rendering stops exactly at each timer's
/// deadline, so a whole scenario renders the same way every time.
package final class PlayerRuntime {
    package struct Configuration {
        package var output: PlaybackEngine.Output
        package var scenario = ScenarioOptions()
        /// The full-screen UI: an empty queue is allowed, and the end of the
        /// queue pauses rather than ends the run.
        package var keepsRunningWhenQueueEnds = false
        /// Playback speed (pitch kept); positions stay in the files' own time.
        package var speed = PlaybackSpeed.normal
        /// `--trim-silence` and `--voice-boost`: spoken audio's pauses shortened
        /// and voices levelled (a book remembers them); nil: the book's own,
        /// else the config's default for its kind. Music is never touched.
        package var trimSilence: TrimStrength?
        package var voiceBoost: VoiceBoost?
        /// The zone clock-time alarms ring in. Headless play stages relative
        /// alarms only, so UTC serves there; the full-screen UI passes the local zone.
        package var alarmTimeZone: TimeZoneRules = .utc
        /// Where alarms persist; nil keeps them in this run only (headless play).
        package var alarmStore: AlarmStore?
        /// Open paused (a queue restored from the last run waits for the user).
        package var startsPaused = false
        /// ReplayGain: the mode, preamp and clipping prevention every music file plays with.
        package var replayGain = ReplayGainSettings()
        /// A device that cannot be opened leaves the run waiting, paused with
        /// the device's error, instead of ending it (the full-screen player).
        package var waitsForOutput = false
        /// Where books opened during the run keep their places; nil: the run
        /// plays what it was started with (headless play), and refuses a switch.
        package var bookStore: BookStateStore?
        /// The config file as the host read it at start, once: what the core reads of it.
        package var settings = PlayerConfigFile()

        package init(output: PlaybackEngine.Output, scenario: ScenarioOptions = ScenarioOptions()) {
            self.output = output
            self.scenario = scenario
        }
    }

    package let configuration: Configuration
    package let events: PlayerEventStream
    /// What plays now: replaced when a book or music takes over (`+Switch`).
    package private(set) var playing: Playback
    package var engine: PlaybackEngine { playing.engine }
    package var controller: PlaybackController { playing.controller }
    package var isSpokenAudio: Bool { playing.isSpokenAudio }
    package var book: BookSession? {
        get { playing.book }
        set { playing.book = newValue }
    }
    package var playOrder: PlayOrderState {
        get { playing.playOrder }
        set { playing.playOrder = newValue }
    }
    /// Each file's tags, read once for every front end.
    package let trackTags = TrackTagStore()
    /// The station decoding now, if any: its descriptor in the loop's poll, its titles and reconnections (`+Stream`).
    package let streamWatch = StreamWatch()
    /// The favourite stations, as the file held them last (`+Stations`).
    package let favouriteStations = FavouriteStations()
    /// The podcasts pane's rows, the refresh and the downloads, all off the loop (`PlayerPodcasts`).
    package let podcasts = PlayerPodcasts()
    /// The names of stations added by their URL alone, asked of their servers off the loop.
    package let stationNames = StationNameProbe()
    package let clock: any Clock
    package let arbiter: AudioSessionArbiter
    package let player: PlayerSession
    /// Set on the frame clock (file sinks), nil with a real device.
    package let frameClock: VirtualClock?
    package let systemClock: SystemClock?
    package let start: MonotonicInstant
    /// Signals reach the loop through a signalfd. Created before any thread
    /// starts, so the writer thread inherits the blocked mask.
    private let signals: SignalChannel

    package private(set) var played = false
    private var lastDevice = 0
    private var warnedRealtime = false
    private var outputFailed = false
    private var interrupted = false
    /// The descriptors of the loop's wait, filled again each turn.
    private var pollSet = LoopPollSet()
    /// The last wait found the signalfd readable: the turn reads it (an empty read each turn was a system call per socket request).
    private var signalsReady = false
    // Kept by the extensions in their own files (hence not private): the
    // simulated suspension and call, the staged suspension's deadlines (the
    // loop carries them out), the alarm scheduler and its voice.
    package var isSessionSuspended = false
    /// Set by `stop()`, cleared by the next play (`isStoppedAtStart`).
    package var stopRequested = false
    package var call: Session?
    package var suspendDeadline: MonotonicInstant?
    package var continueDeadline: MonotonicInstant?
    package var createdScheduler: AlarmScheduler?
    /// The next alarm's sound opened before it is due, and the one sounding now (`PlayerRuntime+AlarmSound`).
    package let alarmSound = AlarmSoundState()
    /// What the host does as music stops playing for a book (the full-screen
    /// player keeps music's queue and place in player.json), and as a book opens.
    package var onMusicLeft: (() -> Void)?
    package var onBookOpened: ((BookSession) -> Void)?
    /// The socket, the buses, the hook, the sound server: opened once for the run by the host, polled after its input.
    package var services: (any LoopSources)?
    /// Set by `PlayerCommand.quit`: the run ends, and the host ends with it.
    package var quitRequested = false
    /// Alarms made for testing (`fireTestAlarm`, `addAlarm(afterSeconds:)`), removed once rung.
    package var testAlarms: Set<AlarmID> = []
    /// The test alarms seen ringing: removed once the ringing is over, unless snoozed.
    var rungTestAlarms: Set<AlarmID> = []
    /// Counts the alarm scheduler's plans, for the services that act ahead of an alarm (`PlayerSnapshot.alarmPlanGeneration`).
    package var alarmPlanGeneration = 0
    /// What an enabled alarm's row says of waking the computer: from the last `alarmWake` event
    /// (the wake timer's), or why none can come; "" while the services are not started.
    package var wakeLabel = ""
    /// Other programs' streams that count as interruptions, by the sound server's index (`+Desktop`).
    package var desktopSessions: [Int: Session] = [:]
    /// The volume a mute returns to; nil while not muted (`+VolumeAndSpeed`).
    package var volumeBeforeMute: Double?

    /// Opens the engine (the first playable file fixes the output format).
    /// Reports what went wrong and returns nil when nothing can play.
    /// `signals` must exist before the engine opens, so that its writer thread
    /// (and those of the engines later switches open) start with them blocked.
    package static func open(configuration: Configuration, paths: [String], events: PlayerEventStream,
                     signals channel: SignalChannel) -> PlayerRuntime? {
        switch openEngine(configuration, paths: paths, spoken: configuration.scenario.spoken, speed: configuration.speed) {
        case .success(let engine):
            return PlayerRuntime(configuration: configuration, engine: engine, events: events, signals: channel)
        case .failure(let failure):
            for problem in failure.problems { events.error(problem) }
            return nil
        }
    }

    /// What went wrong opening an engine, one sentence a line.
    package struct EngineFailure: Error {
        package var problems: [String]
    }

    /// An engine over the run's output for `paths`, opened (the first
    /// playable file fixes the output format), at `speed`.
    package static func openEngine(_ configuration: Configuration, paths: [String], spoken: Bool,
                           speed: PlaybackSpeed) -> Result<PlaybackEngine, EngineFailure> {
        // Before the first station opens (the engine opens the first entry).
        TimeShiftSettings.use(configuration.settings.timeShiftSettings)
        configuration.settings.useNetworkLimits()
        let engine = PlaybackEngine(paths: paths, output: spoken ? configuration.output.forSpokenAudio()
                                                                 : configuration.output)
        engine.keepsOutputAtQueueEnd = configuration.keepsRunningWhenQueueEnds
        engine.waitsForOutput = configuration.waitsForOutput
        var problems: [String] = []
        do {
            try engine.open()
        } catch {
            for event in engine.feeder.takeEvents() {
                if case .failed(let error) = event { problems.append("\(error.description) (skipped)") }
            }
            switch error {
            case .output(let output) where output.isDeviceUnavailable:
                problems.append("\(error.description) (choose another device with --device NAME, "
                                + "or render with --output wav:PATH or --output null)")
            default:
                problems.append(error.description)
            }
            return .failure(EngineFailure(problems: problems))
        }
        do { try engine.setSpeed(speed) } catch { return .failure(EngineFailure(problems: [error.description])) }
        if spoken {
            // A book's own settings replace these as it begins (`BookSession.begin`).
            engine.setTrimStrength(configuration.trimSilence ?? .off)
            engine.setVoiceBoost(configuration.voiceBoost ?? .off)
        }
        return .success(engine)
    }

    private init(configuration: Configuration, engine: PlaybackEngine, events: PlayerEventStream, signals: SignalChannel) {
        self.configuration = configuration
        self.events = events
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
        // A stream that served a runtime before (tests run several on one) goes on from where it was.
        let before = events.timeSource?() ?? 0
        events.timeSource = { before + (clock.monotonicNow - start).seconds }

        arbiter = AudioSessionArbiter(clock: clock)
        let controller = PlaybackController(engine: engine, clock: clock, events: events,
                                            smartRewind: SmartRewind(maxRewindSeconds: scenario.effectiveSmartRewind),
                                            fadeMilliseconds: scenario.fadeMilliseconds)
        playing = Playback(engine: engine, controller: controller, isSpokenAudio: scenario.spoken,
                           playOrder: PlayOrderState())
        let settings = ResumeSettings(suspendedResumeDelay: .milliseconds(Int((scenario.resumeDelay * 1000).rounded())),
                                      pauseFade: .milliseconds(scenario.fadeMilliseconds))
        player = PlayerSession(arbiter: arbiter, clock: clock, content: scenario.spoken ? .spokenAudio : .music,
                               settings: settings, sink: controller)
        controller.player = player
        player.onSessionEvent = { [events] event in events.report(event) }
        streamWatch.runtime = self
        events.subscribe { [weak self] timed in
            if case .alarmWake(let at, let reason) = timed.event { self?.wakeLabel = AlarmWakeLabel.label(at: at, reason: reason) }
        }
        stageScenario()
        installPlayOrder()
        installReplayGain()
    }

    package var format: AudioFormat { engine.format }

    /// Other playback takes over (`+Switch`): `next`, with a controller of
    /// its own, replaces what plays, under the same session, clock and alarms.
    package func replacePlayback(with next: PlaybackEngine, spoken: Bool) {
        let volume = controller.volume
        var scenario = configuration.scenario
        scenario.spoken = spoken
        let controller = PlaybackController(engine: next, clock: clock, events: events,
                                            smartRewind: SmartRewind(maxRewindSeconds: scenario.effectiveSmartRewind),
                                            fadeMilliseconds: scenario.fadeMilliseconds)
        playing = Playback(engine: next, controller: controller, isSpokenAudio: spoken,
                           playOrder: PlayOrderState(seed: playOrder.seed))
        lastDevice = 0
        alarmSound.prepared = nil
        controller.player = player
        controller.volume = volume
        player.setSink(controller)
        installPlayOrder()
        installReplayGain()
    }


    // MARK: The user and job control

    /// Ctrl-Z: release the device, really stop, and on `fg` come back with
    /// the late `began` (wasSuspended) of the suspension.
    package func jobControlStop(host: PlayerHost?) {
        events.emit(.suspending)
        host?.willStop()
        arbiter.processWillSuspend()
        engine.suspendOutput()
        kill(getpid(), SIGSTOP)
        // Here again after SIGCONT.
        do { try engine.resumeOutput() } catch { events.error(error.description) }
        host?.didContinue()
        events.emit(.continued)
        arbiter.processDidContinue()
    }

    /// A station's audio began (`StreamWatch`): the run played something.
    package func streamPlayed() { played = true }

    /// Ends the run at the end of this turn of the loop.
    package func requestStop() { interrupted = true }

    // MARK: The loop

    /// The core's own work at the end of each turn, then the host's (its redraw):
    /// the test alarms that have rung go, as their commands say.
    private func endTurn(_ host: PlayerHost) {
        removeRungTestAlarms()
        host.afterIteration()
    }

    /// Runs until the queue ends (unless the host keeps running), the host
    /// quits, or a signal stops it. Returns the exit status.
    package func run(host: PlayerHost) -> Int32 {
        if let unavailable = engine.unavailableOutput {
            // No device: wait, paused with its error, for the user's play to try again.
            // Named by its command, as every front end offers it: a key the user may have rebound is the screen's to name.
            events.error("\(unavailable.description) (playback waits: play again to try the device, "
                          + "or choose another with --device NAME)")
            player.outputUnavailable(reason: unavailable.description)
            // Shown now: with nothing playing, the loop's first wait lasts until a key.
            endTurn(host)
        } else if configuration.startsPaused {
            // Stopped before the first frame: the first play resumes from here.
            engine.pauseMedia(fadeFrames: 1)
        } else {
            player.play()
        }
        let wallClock = WallClockChangeDescriptor()
        while !engine.isFinished || host.keepsRunningWhenQueueEnds {
            // A timer that cannot be made or armed would never wake the loop.
            if let failure = systemClock?.wakeUpFailure ?? wallClock.failure {
                events.error(failure.description)
                return 1
            }
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
                waitForEvents(host: host, wallClock: wallClock, refillWait: -1)
                endTurn(host)
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
                    // A deadline a second or more away cannot shorten a 10 ms slice, and
                    // one days away (a staged call's end) would overflow the product.
                    let (seconds, attoseconds) = (next - frameClock.monotonicNow).components
                    if seconds < 1 {
                        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
                        let frames = Int((nanoseconds * Int64(format.rate) + 999_999_999) / 1_000_000_000)
                        maxFrames = max(1, min(maxFrames, frames))
                    }
                }
            }
            let playbackEvents: [PlaybackEvent]
            do { playbackEvents = try engine.pump(maxFrames: maxFrames) } catch {
                events.error(error.description)
                return 1
            }
            if engine.realtimeRefused && !warnedRealtime {
                warnedRealtime = true
                events.error("real-time scheduling (SCHED_FIFO) was refused; the audio thread runs at normal "
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
            handle(playbackEvents, host: host)

            if let frameClock {
                // Nothing more can happen by itself: paused with no timer left.
                let idle = engine.isMediaStopped && !player.isPlaying && frameClock.pendingTimerCount == 0
                    && createdScheduler?.ringing == nil && !isSessionSuspended && !engine.isVoiceSounding
                if idle && !host.keepsRunningWhenQueueEnds {
                    for event in engine.finish() { events.report(event) }
                }
                if idle && host.keepsRunningWhenQueueEnds {
                    // The full-screen UI on a file sink: only the user can change
                    // anything now, so sleep until a key or a signal instead of spinning;
                    // the host draws what this turn changed first.
                    endTurn(host)
                    waitForEvents(host: host, wallClock: wallClock, refillWait: -1)
                } else {
                    pollWithoutWaiting(host: host)
                }
            } else {
                waitForEvents(host: host, wallClock: wallClock, refillWait: engine.suggestedWaitMilliseconds)
            }
            if signalsReady { takeSignals(host: host) }
            endTurn(host)
        }
        if interrupted {
            engine.stop()
            events.emit(.stopped)
        }
        if outputFailed { return 1 }
        emitTimeSaved()
        events.emit(.summary(automaticResumes: player.totalAutomaticResumeAttempts))
        return played ? 0 : 1
    }

    private func handle(_ playbackEvents: [PlaybackEvent], host: PlayerHost) {
        for event in playbackEvents {
            // A book keeps a pause's place at once.
            book?.playbackEvent(event)
            host.playbackEvent(event)
            switch event {
            case .trackStarted(_, let path):
                // A station has played once its audio came (`streamPlayed`), not when its entry began.
                if !StreamLocation.isStation(path) { played = true }
            case .mediaStopped(let position):
                controller.mediaStopped(at: position)
                if engine.isAtQueueEnd {
                    events.emit(.queueEnded)
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
            events.report(event)
            if case .deviceLost = event {
                events.error("playback paused; play again when the device is back")
            }
        }
    }

    /// Sleeps in poll until a refill is due (-1: none needed), a timer (the
    /// clock's wake-up), a signal, a source's descriptor (the host's input
    /// among them), or a wall-clock change. On the frame clock virtual time
    /// does not pass while waiting: only the host can wake it.
    private func waitForEvents(host: PlayerHost, wallClock: WallClockChangeDescriptor, refillWait: Int) {
        var wait = refillWait
        if let limit = host.maximumWaitMilliseconds { wait = wait < 0 ? limit : min(wait, limit) }
        let sources = loopSources(host)
        for source in sources {
            if let limit = source.wakeWithinMilliseconds { wait = wait < 0 ? limit : min(wait, limit) }
        }
        var deadline = suspendDeadline
        if let continueDeadline, deadline.map({ continueDeadline < $0 }) ?? true { deadline = continueDeadline }
        systemClock?.armWakeUp(orAt: deadline, holdingTimers: isSessionSuspended)
        // Unarmed, it would never wake the loop: the loop's next turn reports it and ends.
        guard systemClock?.wakeUpFailure == nil else { return }
        // The engine's writer reports a lost device there: paused, nothing else would wake the loop for it.
        pollSet.reset(own: signals.fd, systemClock?.wakeUpDescriptor ?? -1, wallClock.fd, engine.reportDescriptor)
        for source in sources { pollSet.add(source.pollRequests) }
        pollSet.wait(timeoutMilliseconds: wait)
        signalsReady = pollSet.ownIsReady(0)
        if pollSet.ownIsReady(1) { systemClock?.acknowledgeWakeUp() }
        if pollSet.ownIsReady(3) { engine.takeReports() }
        if pollSet.ownIsReady(2) && wallClock.clockWasSet() {
            events.emit(.wallClockChanged)
            createdScheduler?.wallClockDidChange()
        }
        if let systemClock {
            if arbiter.checkForSystemSleep() { createdScheduler?.wallClockDidChange(reason: .asleep) }
            if !isSessionSuspended { systemClock.runDueTimers() }
        }
        serviceSources(sources)
    }

    /// On the frame clock nothing waits, but the loop's sources are still read.
    private func pollWithoutWaiting(host: PlayerHost) {
        let sources = loopSources(host)
        pollSet.reset(own: signals.fd)
        for source in sources { pollSet.add(source.pollRequests) }
        pollSet.wait(timeoutMilliseconds: 0)
        signalsReady = pollSet.ownIsReady(0)
        serviceSources(sources)
    }

    /// What the loop polls besides its own descriptors, in the order serviced: the host's, the services', the station's, the podcasts'.
    private func loopSources(_ host: PlayerHost) -> [LoopSource] {
        var sources = host.loopSources
        sources.reserveCapacity(sources.count + 11)
        services?.appendSources(to: &sources)
        sources.append(streamWatch)
        sources.append(podcasts)
        sources.append(stationNames)
        return sources
    }

    /// Each source gets the events on its own descriptors, in the order listed.
    private func serviceSources(_ sources: [LoopSource]) {
        for (index, source) in sources.enumerated() {
            source.serviceLoop(ready: pollSet.ready(forSource: index), core: self)
        }
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

extension PlayerRuntime: PlayerCore {}
