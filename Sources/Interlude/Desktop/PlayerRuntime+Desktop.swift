import AudioSession

/// Another program's stream on the sound server, as a session of the runtime's
/// arbiter (see `DesktopInterruptionSource`): what a desktop call, alarm or
/// sound does to the player is what the policy table says for its class.
extension PlayerRuntime {
    /// Opens and activates a session of `priorityClass` labelled with the
    /// program, as the simulated call does. The notification class mixes, as
    /// the player's own chime does; the others are primary audio, so they hold
    /// the player's resume while they play.
    func beginDesktopInterruption(_ priorityClass: PriorityClass, program: String) -> Session {
        let category: SessionCategory = priorityClass == .notification ? .ambient : .playback
        let session = arbiter.openSession(SessionConfiguration(category: category, priorityClass: priorityClass,
                                                               label: program))
        // A stream that starts under a higher session (a desktop call while an
        // alarm rings) cannot activate yet; it does when the higher one ends.
        session.observe { [weak session] event in
            guard case .silenceSecondaryAudioHint(let hint) = event, hint.kind == .ended,
                  let session, !session.isActive else { return }
            try? session.setActive(true)
        }
        try? session.setActive(true)
        return session
    }

    /// The stream ended (or stopped counting): its interruptions end as the
    /// policy table says (`shouldResume` where the class resumes).
    func endDesktopInterruption(_ session: Session) {
        try? session.setActive(false, notifyOthersOnDeactivation: true)
        arbiter.closeSession(session.id)
    }
}
