extension PlaybackEngine {
    /// What the media voice is doing, read from the requests this engine made
    /// and the writer's own reports (`WriterControl`), never from the player's
    /// model: the truth a front end's "playing" or "paused" is checked against
    /// (the control socket's `status`, the TUI tests' invariant).
    public enum MediaActivity: String, Sendable {
        /// The writer takes media frames and the listener hears them.
        case running
        /// A pause is asked for and its fade has not reached silence yet.
        case fading
        /// Silent and frozen at `stopPosition`.
        case stopped
        /// Stopped, with a resume or a jump under way that starts it by itself.
        case starting
    }

    public var mediaActivity: MediaActivity {
        guard let control, !isFinished else { return .stopped }
        if pendingResume != nil { return .starting }
        // Acquire: pairs with the writer's release store of `mediaStopped`.
        let stopped = control.pointee.mediaStopped.load(ordering: .acquiring)
        switch (control.pointee.mediaRun.load(ordering: .relaxed), stopped) {
        case (true, false): return .running
        case (false, false): return .fading
        case (true, true): return .starting
        case (false, true): return .stopped
        }
    }

    /// The interrupter voice (an alarm's tone, a chime), as the writer reports it.
    public enum VoiceActivity: String, Sendable {
        case silent
        /// Sounding on its own: the media stays silent while it does (an alarm).
        case alone
        /// Sounding over the media (a notification's chime).
        case mixed
    }

    public var voiceActivity: VoiceActivity {
        guard let control, isVoiceSounding else { return .silent }
        return control.pointee.voiceExclusive.load(ordering: .relaxed) ? .alone : .mixed
    }
}
