import InterludeCore

/// What the playback engine itself says it is doing, beside the model's
/// `PlayerSnapshot.state`: the control socket's `status` carries both, so a
/// front end's state word can be checked against the engine rather than
/// against the model it is drawn from (the TUI tests check it after every
/// key). Words, not the engine's types: PlayerModel does not see the engine.
public struct EngineReport: Equatable, Sendable {
    /// The media voice: "running", "fading" (a pause's fade under way),
    /// "stopped", or "starting" (stopped, a resume or jump under way).
    public var media: String
    /// The interrupter voice: "silent", "alone" (an alarm's tone, the media
    /// silent) or "mixed" (a chime over the media).
    public var voice: String
    /// The output device failed (or never opened) and has not been reopened.
    public var outputLost: Bool

    public init(media: String, voice: String, outputLost: Bool) {
        self.media = media
        self.voice = voice
        self.outputLost = outputLost
    }

    /// `{"media":"running","outputLost":false,"voice":"silent"}`.
    public var json: JSONValue {
        .object(["media": .string(media), "voice": .string(voice), "outputLost": .bool(outputLost)])
    }
}
