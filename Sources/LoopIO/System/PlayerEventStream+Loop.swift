import PlayerModel

extension PlayerEventStream {
    /// The loop's stream: errors also go to stderr, a line each, never waiting for it.
    package convenience init() {
        self.init(monotonicSeconds: monotonicSeconds, errorLines: { LoopStandardError.write($0) })
    }

    /// False while the full-screen UI owns the terminal: errors then reach the
    /// user through the subscribers only.
    package var writesErrorsToStandardError: Bool {
        get { errorLines != nil }
        set { errorLines = newValue ? { LoopStandardError.write($0) } : nil }
    }
}
