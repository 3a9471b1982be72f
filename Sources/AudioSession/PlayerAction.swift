/// What the player state machine asks the audio engine (and the screen) to do.
/// The engine carries these out; the state machine never touches audio itself.
public enum PlayerAction: Sendable, Equatable {
    /// Ramp the gain to zero over `fade`, stop output, remember the heard position.
    case pause(fade: Duration)
    /// Seek to the heard position (minus smart rewind), refill, ramp in.
    case resume(ResumeTrigger)
    /// Ramp to `gain` over `ramp` and keep playing.
    case duck(gain: Double, ramp: Duration)
    /// Ramp back to full gain over `ramp`.
    case unduck(ramp: Duration)
    /// A single automatic resume attempt will be made after `delay` (the suspended path).
    case resumeScheduled(after: Duration)
    /// The resume waits for the secondary-audio hint to clear.
    case resumePostponed
    /// The automatic resume failed; the player stays paused until the user plays.
    case resumeFailed(reason: String)
    /// The user asked to play and was refused (a higher-priority session is active).
    case playRefused(reason: String)
    /// The interruption ended without `shouldResume`: paused until the user plays.
    case stayPaused
}

public enum ResumeTrigger: Sendable, Equatable {
    /// The user pressed play.
    case user
    /// The resume strategy resumed after an interruption.
    case automatic
}

/// Receives the player's actions: the audio engine adapter in the application,
/// a recorder in tests.
public protocol PlayerActionSink: AnyObject {
    func perform(_ action: PlayerAction)
}
