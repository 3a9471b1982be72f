import InterludeCore

/// Interruptions staged from the command line (`--alarm-in`, `--call-at`,
/// `--notify-at`, `--suspend-at`...), for tests and users' own scripts; the
/// loop carries out the suspension's deadlines.
extension PlayerRuntime {
    private func at(_ seconds: Double, _ action: @escaping () -> Void) {
        _ = clock.schedule(at: start + .milliseconds(Int((seconds * 1000).rounded())), action)
    }

    package func stageScenario() {
        let scenario = configuration.scenario
        suspendDeadline = scenario.suspendAt.map { start + .milliseconds(Int(($0 * 1000).rounded())) }
        continueDeadline = scenario.continueAt.map { start + .milliseconds(Int(($0 * 1000).rounded())) }
        if let alarmIn = scenario.alarmIn {
            at(0) { [unowned self] in
                addAlarm(after: .milliseconds(Int((alarmIn * 1000).rounded())), label: "scenario alarm",
                         ringSeconds: scenario.alarmRing, sound: scenario.alarmSound,
                         rampSeconds: scenario.alarmRamp, rooms: scenario.alarmRooms)
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
}
