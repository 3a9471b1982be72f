/// The player's answer to a command, for the front end that sent it: data,
/// which each front end words (`CommandReport.sentence`, `Refusal.sentence`).
public enum CommandResult: Equatable, Sendable {
    /// Carried out; `report` is what there is to say about it, if anything.
    case done(report: CommandReport?)
    /// Not carried out, and why.
    case refused(reason: Refusal)

    public static let done = CommandResult.done(report: nil)
}

/// Which favourite station a command means: a number as `station list`
/// shows it now (the remote's), or the URL the radio pane has selected (its
/// number may have changed meanwhile, by another process's edit).
public enum StationTarget: Equatable, Sendable {
    case number(Int)
    case url(String)
}
