import AudioEngine

/// What drives a `PlayerRuntime` from outside: the headless command line or
/// the full-screen UI. The runtime owns the loop; the host adds descriptors to
/// its `poll`, reacts to them, and redraws after each turn.
protocol PlayerHost: AnyObject {
    /// Descriptors to wait on besides the runtime's own (fd 0 for keys or commands).
    var extraDescriptors: [Int32] { get }
    /// Some of `extraDescriptors` are readable.
    func descriptorsReady(_ fds: [Int32])
    /// A signal the runtime does not handle itself (SIGWINCH, say). Return
    /// false to treat it as a request to stop (SIGINT, SIGTERM, SIGHUP).
    func handleSignal(_ number: Int32) -> Bool
    /// After every turn of the loop: redraw, if anything changed.
    func afterIteration()
    /// Wake at least this often (a progress display), or nil.
    var maximumWaitMilliseconds: Int? { get }
    /// True for the full-screen UI: the end of the queue is not the end.
    var keepsRunningWhenQueueEnds: Bool { get }
    /// Around a job-control stop (Ctrl-Z): give the terminal back, and take it again.
    func willStop()
    func didContinue()
    /// What the listener heard happen, before it is printed: for a display
    /// outside the event stream (headless play's progress line on stderr).
    func playbackEvent(_ event: PlaybackEvent)
    /// Sources outside the player polled in the same wait (see `LoopSource`).
    var loopSources: [LoopSource] { get }
}

extension PlayerHost {
    func willStop() {}
    func didContinue() {}
    func playbackEvent(_ event: PlaybackEvent) {}
    var loopSources: [LoopSource] { [] }
}
