import AudioEngine

/// What the full-screen player reads and sets on the runtime beyond its
/// queue actions: whether an interruption holds playback, and the volume.
extension PlayerRuntime {
    var isInterrupted: Bool { player.interruption != nil }

    /// Whether playback will come back by itself: an interruption that ends
    /// in a resume, a scheduled or postponed attempt, or a suspended session
    /// that was playing.
    var expectsAutomaticResume: Bool {
        (player.interruption?.resumeWhenEnded ?? false) || player.pendingResume != .none
            || (isSessionSuspended && player.isPlaying)
    }

    /// The `[` and `]` keys: from the next frames decoded, pitch kept. Nil
    /// when done, else why not.
    func setSpeed(_ speed: PlaybackSpeed) -> String? {
        do { try engine.setSpeed(speed) } catch { return error.description }
        printer.emit("speed") { $0.add("speed", speed.value) }
        return nil
    }

    /// 0...1, composed with ducking by the controller.
    var volume: Double {
        get { controller.volume }
        set {
            controller.volume = newValue
            printer.emit("volume") { $0.add("volume", controller.volume) }
        }
    }
}
