import PlayerModel
import AudioEngine

/// What drives a `PlayerRuntime` from outside: the headless command line or
/// the full-screen UI, input and rendering only. The runtime owns the loop;
/// the host's input is a `LoopSource` like every other descriptor the loop
/// waits on (`loopSources`), and the host redraws after each turn.
package protocol PlayerHost: AnyObject {
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
    /// What the loop's one `poll` waits on besides its signals and timers
    /// (see `LoopSource`): the host's input first, then the services.
    var loopSources: [LoopSource] { get }
}

extension PlayerHost {
    package func willStop() {}
    package func didContinue() {}
    package func playbackEvent(_ event: PlaybackEvent) {}
    package var loopSources: [LoopSource] { [] }
}
