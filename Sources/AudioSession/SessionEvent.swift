/// Everything the arbiter tells a session's observer, in the order it happened.
public enum SessionEvent: Sendable, Equatable {
    case interruption(InterruptionNotification)
    case ducking(DuckingNotification)
    case silenceSecondaryAudioHint(SilenceSecondaryAudioHintNotification)
}
