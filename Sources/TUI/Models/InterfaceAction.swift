import PlayerModel

/// What a key press asks of the host beyond the interface's own state
/// (focus, lists, prompts, help, which `InterfaceState` changes itself).
public enum InterfaceAction: Equatable, Sendable {
    /// Every player action: the same commands standard input and the control socket send.
    case player(PlayerCommand)
    /// The next colour theme: the host loads it and gives it to the terminal.
    case cycleTheme
    /// Leave this screen (q): the host ends it; a player in the foreground ends with it.
    case leave
}
