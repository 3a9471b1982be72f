import InterludeCore

/// AVAudioSession's `silenceSecondaryAudioHintNotification`: the value of
/// `secondaryAudioShouldBeSilencedHint` changed for the observing session.
/// `began` means a higher-priority non-mixable session became active.
public struct SilenceSecondaryAudioHintNotification: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case began
        case ended
    }

    public let kind: Kind
    public let time: MonotonicInstant

    public init(kind: Kind, time: MonotonicInstant) {
        self.kind = kind
        self.time = time
    }
}
