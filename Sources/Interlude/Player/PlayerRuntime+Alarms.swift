import Alarms
import AudioEngine
import AudioSession
import InterludeCore
import PlayerModel

/// The alarm scheduler, made on first use, and the alarm voice it sounds.
extension PlayerRuntime {
    /// Created on first use; without a store, only alarms made in this run
    /// ring. Relative alarms need no zone, so UTC serves until one is set.
    var alarms: AlarmScheduler {
        if let createdScheduler { return createdScheduler }
        let scheduler = AlarmScheduler(clock: clock, timeZone: configuration.alarmTimeZone, arbiter: arbiter, store: configuration.alarmStore,
                                       settings: AlarmScheduler.Settings(lateRingGrace: configuration.alarmGrace))
        // A sound file that did not open, said where it was said before the
        // voice came first: after the ringing's own events.
        var unreportedVoiceProblem: String?
        scheduler.onSound = { [unowned self, unowned scheduler] ids in
            let sound = ids.first.flatMap { id in scheduler.alarms.first { $0.id == id }?.sound } ?? .default
            unreportedVoiceProblem = startVoice(for: sound)
        }
        scheduler.onEvent = { [unowned self] event in
            events.report(event)
            switch event {
            case .ringingBegan:
                // An alarm that rings while the session is suspended without the
                // process being stopped (the `s` testing key: only the `a` key can
                // ring one then, as no timer fires) wakes it, as the system wakes
                // a suspended app for an interruption: the player gets its late
                // `began` with wasSuspended, and the single delayed resume follows.
                if isSessionSuspended { continueSession() }
                if let problem = unreportedVoiceProblem { events.error(problem) }
                unreportedVoiceProblem = nil
            case .ringingEnded:
                engine.stopVoice(fadeFrames: format.frames(forSeconds: 0.01))
                engine.setAlarmRole(false)
            default:
                break
            }
        }
        scheduler.onPrepare = { [unowned self] alarm in prepareAlarmVoice(alarm.sound) }
        // The computer's wake follows the next alarm: looked at after each plan, never on a timer of its own.
        scheduler.onPlanned = { [unowned self] in services?.mpris?.wakeTimer?.alarmsPlanned() }
        // What is found late after a sleep says so: the sleep as the system
        // announced it (logind), and at wake-up a look at what fell due, once
        // the arbiter has taken the wake (the next turn of the loop).
        events.subscribe { [weak scheduler, clock] timed in
            switch timed.event {
            case .systemWillSleep: scheduler?.systemWillSleep()
            case .systemDidWake: _ = clock.schedule(after: .zero) { scheduler?.systemDidWake() }
            default: break
            }
        }
        scheduler.start()
        createdScheduler = scheduler
        return scheduler
    }

    var hasAlarmScheduler: Bool { createdScheduler != nil }

    /// Opens the next alarm's sound before it is due, so that ringing starts
    /// a voice that is ready (the built-in tone needs nothing).
    private func prepareAlarmVoice(_ sound: AlarmSound) {
        guard case .file(let path) = sound else {
            preparedAlarmVoice = nil
            return
        }
        if preparedAlarmVoice?.path == path { return }
        // A sound that does not open is reported when it rings, as before.
        preparedAlarmVoice = try? FileVoice(path: path, format: format)
    }

    /// The alarm's voice on the engine that plays now (it moves with a switch).
    func startAlarmVoice(_ sound: AlarmSound) {
        if let problem = startVoice(for: sound) { events.error(problem) }
    }

    /// Starts `sound` as the exclusive voice: it sounds from the frame the media
    /// stops (at once when it is stopped already). Returns the line to report
    /// when its file did not open (once a run) and the built-in tone sounds instead.
    private func startVoice(for sound: AlarmSound) -> String? {
        var source: VoiceSource = ToneVoice()
        var problem: String?
        if case .file(let path) = sound, let prepared = preparedAlarmVoice, prepared.path == path {
            source = prepared
        } else if case .file(let path) = sound {
            do throws(DecoderError) { source = try FileVoice(path: path, format: format) } catch {
                if !alarmVoiceError { problem = "\(error.description) (using the built-in tone)" }
                alarmVoiceError = true
            }
        }
        // Used once: the next alarm gets a voice of its own, from the start of its file.
        preparedAlarmVoice = nil
        engine.startVoice(source, exclusive: true, fadeFrames: format.frames(forSeconds: 0.005))
        // The desktop's role policy quiets other programs' music meanwhile (PulseOutput.alarmRole).
        engine.setAlarmRole(true)
        return problem
    }

    /// An alarm `delay` from now (relative: an exact monotonic deadline).
    @discardableResult
    func addAlarm(after delay: Duration, label: String, ringSeconds: Double = 60, sound: String? = nil) -> Alarm {
        alarms.add(after: delay) { alarm in
            alarm.label = label
            alarm.ringTimeoutSeconds = max(1, Int(ringSeconds.rounded()))
            if let sound { alarm.sound = .file(path: sound) }
        }
    }

    func snoozeAlarm() { createdScheduler?.snooze() }
    func dismissAlarm() { createdScheduler?.dismiss() }
}
