import Alarms
import AudioEngine
import AudioSession
import InterludeCore
import PlayerModel

/// The alarm scheduler, made on first use, and the alarm voice it sounds.
extension PlayerRuntime {
    /// Created on first use; without a store, only alarms made in this run
    /// ring. Relative alarms need no zone, so UTC serves until one is set.
    package var alarms: AlarmScheduler {
        if let createdScheduler { return createdScheduler }
        let scheduler = AlarmScheduler(clock: clock, timeZone: configuration.alarmTimeZone, arbiter: arbiter, store: configuration.alarmStore,
                                       settings: AlarmScheduler.Settings(lateRingGrace: configuration.settings.alarmGraceDuration))
        // A sound that did not open, said after the ringing's own events (the voice comes first).
        var unreported: (id: AlarmID, sound: AlarmSound, problem: AlarmSoundProblem)?
        scheduler.onSound = { [unowned self, unowned scheduler] ids in
            let alarm = ids.first.flatMap { id in scheduler.alarms.first { $0.id == id } }
            let problem = startVoice(for: alarm)
            unreported = alarm.flatMap { alarm in problem.map { (alarm.id, alarm.sound, $0) } }
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
                if let unreported { reportAlarmSoundFallback(unreported.id, sound: unreported.sound, unreported.problem) }
                unreported = nil
            case .ringingEnded:
                stopWatchingAlarmSound()
                engine.stopVoice(fadeFrames: format.frames(forSeconds: 0.01), holdFrames: alarmSound.roomGapFrames)
                alarmSound.roomGapFrames = 0
                engine.setAlarmRole(false)
            default:
                break
            }
        }
        scheduler.onPrepare = { [unowned self] alarm in prepareAlarmVoice(alarm.sound) }
        // The computer's wake follows the next alarm: looked at after each plan, never on a timer of its own.
        scheduler.onPlanned = { [unowned self] in alarmPlanGeneration += 1 }
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
        alarmPlanGeneration += 1
        return scheduler
    }

    package var hasAlarmScheduler: Bool { createdScheduler != nil }

    /// The ringing alarm's voice on the engine that plays now (it moves with a switch).
    package func startAlarmVoice(_ ids: [AlarmID]) {
        let alarm = ids.first.flatMap { id in alarms.alarms.first { $0.id == id } }
        if let problem = startVoice(for: alarm) { reportAlarmSoundFallback(alarm?.id, sound: alarm?.sound, problem) }
    }

    /// An alarm `delay` from now (relative: an exact monotonic deadline).
    @discardableResult
    package func addAlarm(after delay: Duration, label: String, ringSeconds: Double = 60, sound: AlarmSound? = nil,
                  rampSeconds: Int = 0, rooms: [String] = []) -> Alarm {
        alarms.add(after: delay) { alarm in
            alarm.label = label
            alarm.rooms = rooms
            alarm.ringTimeoutSeconds = max(1, Int(ringSeconds.rounded()))
            if let sound { alarm.sound = sound }
            alarm.rampSeconds = rampSeconds
        }
    }

    package func snoozeAlarm() { createdScheduler?.snooze() }
    package func dismissAlarm() { createdScheduler?.dismiss() }
}
