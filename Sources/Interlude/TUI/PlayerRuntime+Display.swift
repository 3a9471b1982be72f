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

    /// 0...1, composed with ducking by the controller.
    var volume: Double {
        get { controller.volume }
        set {
            controller.volume = newValue
            printer.emit("volume") { $0.add("volume", controller.volume) }
        }
    }
}
