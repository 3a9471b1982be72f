/// MPD's permissions (`read`, `add`, `control`, `admin`) and what each
/// command needs, as Debian's `mpd` 0.23 gives them: with a password set and
/// no `default_permissions`, a client has none until it sends the password,
/// so it may only `ping`, `close`, `commands`, `notcommands`, `tagtypes`,
/// `binarylimit` and `password` (measured: `commands` lists just these).
public struct MPDPermission: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let read = MPDPermission(rawValue: 1)
    public static let add = MPDPermission(rawValue: 2)
    public static let control = MPDPermission(rawValue: 4)
    public static let admin = MPDPermission(rawValue: 8)
    public static let all: MPDPermission = [.read, .add, .control, .admin]

    private static let none: Set<String> = ["ping", "close", "commands", "notcommands", "tagtypes", "binarylimit", "password"]
    private static let adding: Set<String> = ["add", "addid", "load", "findadd", "searchadd"]
    private static let controlling: Set<String> = [
        "play", "playid", "pause", "stop", "next", "previous", "seek", "seekid", "seekcur", "setvol", "volume", "random",
        "repeat", "single", "consume", "clear", "delete", "deleteid", "move", "moveid", "shuffle", "save", "rm",
        "playlistadd", "searchaddpl", "swap", "swapid",
    ]
    private static let administering: Set<String> = ["enableoutput", "disableoutput", "toggleoutput"]

    /// Each command that needs other than reading, and what it needs: one
    /// lookup, where asking the four sets in turn hashed `status` four times.
    private static let byCommand: [String: MPDPermission] = {
        var table: [String: MPDPermission] = [:]
        for (commands, permission) in [(none, MPDPermission()), (adding, .add), (controlling, .control), (administering, .admin)] {
            for command in commands { table[command] = permission }
        }
        return table
    }()

    /// What `command` needs; reading for any other (status, the database, idle).
    public static func needed(by command: String) -> MPDPermission {
        byCommand[command] ?? .read
    }

    /// MPD's refusal: `ACK [4@0] {status} you don't have permission for "status"`.
    public static func refusal(_ command: String) -> MPDFailure {
        MPDFailure(.permission, "you don't have permission for \(MPDRequest.quoted(command))", command: command)
    }
}
