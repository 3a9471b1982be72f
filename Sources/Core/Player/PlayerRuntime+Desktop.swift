import AudioSession

/// Another program's stream on the sound server, as a session of the runtime's
/// arbiter (see `DesktopInterruptionSource`): what a desktop call, alarm or
/// sound does to the player is what the policy table says for its class.
extension PlayerRuntime {
    /// Opens and activates a session of `priorityClass` labelled with the
    /// program, as the simulated call does. Calls, alarms and timers are
    /// primary audio, so they hold the player's resume (and refuse its play)
    /// while they sound; the shorter classes mix, as a navigation prompt and
    /// the player's own chime do, so a play during a desktop sound is not refused.
    package func beginDesktopInterruption(_ priorityClass: PriorityClass, program: String) -> Session {
        let configuration = switch priorityClass {
        case .navigation:
            SessionConfiguration(options: [.duckOthers, .interruptSpokenAudioAndMixWithOthers],
                                 priorityClass: priorityClass, label: program)
        case .notification:
            SessionConfiguration(category: .ambient, options: [.duckOthers], priorityClass: priorityClass, label: program)
        default:
            SessionConfiguration(priorityClass: priorityClass, label: program)
        }
        let session = arbiter.openSession(configuration)
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
    package func endDesktopInterruption(_ session: Session) {
        try? session.setActive(false, notifyOthersOnDeactivation: true)
        arbiter.closeSession(session.id)
    }
}
