import PlayerModel

/// System sleep as the system announces it (`LogindSleepSource`). The
/// suspension path of a stopped process, with the machine as the process:
/// sessions deactivated before it sleeps, the late `began` with
/// `wasSuspended` when it wakes, then the single delayed attempt.
extension PlayerRuntime {
    package func systemWillSleep() {
        guard !arbiter.isSleepAnnounced else { return }
        events.emit(.systemWillSleep)
        arbiter.systemWillSleep()
        // Silent before the machine sleeps: what the device still held would
        // otherwise play at wake-up, before the late `began` pauses it.
        engine.pauseMedia(fadeFrames: controller.fadeFrames)
    }

    package func systemDidWake() {
        guard arbiter.isSleepAnnounced else { return }
        events.emit(.systemDidWake)
        arbiter.systemDidWake()
    }
}
