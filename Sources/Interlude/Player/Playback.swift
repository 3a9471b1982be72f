import AudioEngine

/// What plays, the part of the player a switch replaces (`PlayerRuntime+Switch`):
/// the engine over its files and the controller that carries the session's
/// actions out on it, the book it plays or the queue's shuffle and repeat,
/// and whether it is spoken audio. Everything else the runtime holds lives
/// for the run.
final class Playback {
    let engine: PlaybackEngine
    let controller: PlaybackController
    /// Spoken-audio mode: a book plays (or `--spoken`).
    let isSpokenAudio: Bool
    /// The book that plays, set by its session's `begin`.
    var book: BookSession?
    /// Shuffle and repeat (`+PlayOrder`).
    var playOrder: PlayOrderState

    init(engine: PlaybackEngine, controller: PlaybackController, isSpokenAudio: Bool, playOrder: PlayOrderState) {
        self.engine = engine
        self.controller = controller
        self.isSpokenAudio = isSpokenAudio
        self.playOrder = playOrder
    }
}
