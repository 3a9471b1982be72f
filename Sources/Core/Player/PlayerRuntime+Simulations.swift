import Alarms
import AudioEngine
import AudioSession
import InterludeCore
import PlayerModel

/// What the testing keys (and the staged scenario) simulate: a notification
/// chime, a call, a suspended session, a lost output device. Each goes
/// through the session arbiter as the real thing would.
extension PlayerRuntime {
    /// A short chime from a notification session: the music ducks under it.
    package func notificationChime() {
        let chime = arbiter.openSession(SessionConfiguration(category: .ambient, priorityClass: .notification))
        try? chime.setActive(true)
        events.emit(.notification)
        engine.startVoice(ToneVoice(repeats: false), exclusive: false, gain: 1,
                          fadeFrames: format.frames(forSeconds: 0.005))
        // The chime is one pattern cycle long; the session ends with it. The
        // arbiter holds the clock that holds this timer: held weakly, a player
        // that ends while the chime still sounds frees both (strongly it was a
        // cycle that LeakSanitizer reported for `play --notify-at`).
        _ = clock.schedule(after: .seconds(ToneVoice.cycleSeconds)) { [weak arbiter] in
            guard let arbiter else { return }
            try? chime.setActive(false, notifyOthersOnDeactivation: true)
            arbiter.closeSession(chime.id)
        }
    }

    /// Starts a simulated call, or ends the one in progress.
    package func toggleCall() {
        if let call {
            events.emit(.callEnded)
            try? call.setActive(false, notifyOthersOnDeactivation: true)
            arbiter.closeSession(call.id)
            self.call = nil
        } else {
            let call = arbiter.openSession(SessionConfiguration(category: .playback, priorityClass: .call))
            self.call = call
            events.emit(.callStarted)
            try? call.setActive(true)
        }
    }

    package var isCallActive: Bool { call != nil }

    /// Suspends the session as a stopped process would be (no timer fires and
    /// nothing sounds), without stopping the process; again to continue.
    package func toggleSessionSuspended() {
        if isSessionSuspended { continueSession() } else { suspendSession() }
    }

    package func suspendSession() {
        guard !isSessionSuspended else { return }
        isSessionSuspended = true
        events.emit(.suspended)
        arbiter.processWillSuspend()
        engine.pauseMedia(fadeFrames: controller.fadeFrames)
    }

    package func continueSession() {
        guard isSessionSuspended else { return }
        isSessionSuspended = false
        events.emit(.continued)
        arbiter.processDidContinue()
    }

    /// The route-lost path without losing the device: the player pauses with
    /// `routeDisconnected` and waits for the user, as when the device goes away.
    package func simulateDeviceLoss() {
        events.emit(.deviceLostSimulated)
        arbiter.outputDeviceLost()
    }
}
