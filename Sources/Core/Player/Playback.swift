import AudioEngine

/// What plays, the part of the player a switch replaces (`PlayerRuntime+Switch`):
/// the engine over its files and the controller that carries the session's
/// actions out on it, the book it plays or the queue's shuffle and repeat,
/// and whether it is spoken audio. Everything else the runtime holds lives
/// for the run.
package final class Playback {
    package let engine: PlaybackEngine
    package let controller: PlaybackController
    /// Spoken-audio mode: a book plays (or `--spoken`).
    package let isSpokenAudio: Bool
    /// The book that plays, set by its session's `begin`.
    package var book: BookSession?
    /// Shuffle and repeat (`+PlayOrder`).
    package var playOrder: PlayOrderState

    package init(engine: PlaybackEngine, controller: PlaybackController, isSpokenAudio: Bool, playOrder: PlayOrderState) {
        self.engine = engine
        self.controller = controller
        self.isSpokenAudio = isSpokenAudio
        self.playOrder = playOrder
    }
}
