import InterludeCore

/// All a service or a front end may see of the player's core, as MPD's player
/// sees its outputs only through `PlayerOutputs` and a swift-nio handler only
/// its `ChannelHandlerContext`: carry out a command, read a snapshot, follow
/// the events, and the clock the core runs on. The socket, MPD, MPRIS,
/// logind, the desktop's streams, the hook, the library index, podcasts and
/// the screen get this and nothing else; whatever one of them needs is a
/// command or a snapshot field.
///
/// Main thread only, inside the loop's turn.
public protocol PlayerCore: AnyObject {
    /// Carries `command` out, as every front end's request is: the one dispatcher.
    func perform(_ command: PlayerCommand) -> CommandResult
    /// What the player is and holds now; `detail` keeps a frequent reader's cost down.
    func snapshot(_ detail: PlayerSnapshot.Detail) -> PlayerSnapshot
    /// Every event from a subscription on, stamped with the core's time.
    var events: PlayerEventStream { get }
    /// The core's clock: the system's, or the frame clock of a render to a file.
    var clock: any Clock { get }
}

extension PlayerCore {
    public func snapshot() -> PlayerSnapshot { snapshot(.full) }
}
