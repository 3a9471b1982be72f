import InterludeCore

/// One command of the player, as every front end knows it: its one name,
/// the old spellings still accepted, its arguments and their ranges, its help
/// line, its default keys and how its arguments become a `RemoteAction`
/// (most often a `PlayerCommand` for `PlayerRuntime.perform`). The rows are
/// `CommandTable.entries`.
public struct CommandSpec: Sendable {
    /// Who carries a command out: the player, or the full-screen player's own
    /// state (focus, lists, help, theme), which no other front end has.
    public enum Scope: Sendable, Equatable {
        case player
        case screen
    }

    /// The front ends that take a command by its name (MPRIS by `mpris`).
    public struct FrontEnds: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The keys file and `?` help (`KeyAction`), whether or not a key is bound by default.
        public static let keys = FrontEnds(rawValue: 1)
        /// `interlude play`'s standard input, one word a line.
        public static let standardInput = FrontEnds(rawValue: 2)
        /// The control socket's `command`, and so `interlude remote`.
        public static let socket = FrontEnds(rawValue: 4)
    }

    /// The D-Bus member of MPRIS that stands for the command.
    public struct MprisMember: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case method
            /// A property a client writes (Volume, Rate, Shuffle, LoopStatus).
            case writableProperty
        }

        /// `org.mpris.MediaPlayer2` (Quit) or `org.mpris.MediaPlayer2.Player`.
        public let interface: String
        public let name: String
        public let kind: Kind

        public static let rootInterface = "org.mpris.MediaPlayer2"
        public static let playerInterface = "org.mpris.MediaPlayer2.Player"

        static func player(_ name: String, _ kind: Kind = .method) -> MprisMember {
            MprisMember(interface: playerInterface, name: name, kind: kind)
        }
    }

    public let name: String
    /// Earlier spellings (the socket's `toggle`, the keys file's `alarm-new`),
    /// accepted wherever the name is, so no user's file or script breaks.
    public let aliases: [String]
    public let section: CommandSection
    /// The help line: what the command does, in the user's words.
    public let summary: String
    public let arguments: [CommandArgument]
    /// Keys in the keys file's spelling (`space`, `z`, `ctrl-p`); empty when none is bound by default.
    public let defaultKeys: [String]
    public let scope: Scope
    public let frontEnds: FrontEnds
    public let mpris: MprisMember?
    /// The MPD protocol's commands that stand for this one (`setvol` for
    /// `volume`): the MPD front end turns their arguments into this row's.
    public let mpd: [String]
    /// The socket's (and standard input's, MPRIS's, the keys') reading of the
    /// arguments; nil for a command only the screen can give, whose arguments
    /// are its selection or a prompt's text.
    let parse: (@Sendable (RemoteArguments) throws(RemoteArgumentError) -> RemoteAction)?

    init(_ name: String, aliases: [String] = [], _ section: CommandSection, _ summary: String,
         arguments: [CommandArgument] = [], keys: [String] = [], scope: Scope = .player, offeredBy frontEnds: FrontEnds,
         mpris: MprisMember? = nil, mpd: [String] = [],
         parse: (@Sendable (RemoteArguments) throws(RemoteArgumentError) -> RemoteAction)?) {
        self.name = name
        self.aliases = aliases
        self.section = section
        self.summary = summary
        self.arguments = arguments
        self.defaultKeys = keys
        self.scope = scope
        self.frontEnds = frontEnds
        self.mpris = mpris
        self.mpd = mpd
        self.parse = parse
    }

    /// True when `word` (any case) is the name or an alias.
    public func isCalled(_ word: String) -> Bool {
        let lowered = word.lowercased()
        return name == lowered || aliases.contains(lowered)
    }

    /// The action for `values` as the socket's `args` would carry them;
    /// `calledAs` is the word the user wrote, for the complaint.
    public func action(_ values: [JSONValue], calledAs word: String? = nil) throws(RemoteArgumentError) -> RemoteAction {
        guard let parse else { throw RemoteArgumentError("\(word ?? name): only the full-screen player's keys give it") }
        return try parse(RemoteArguments(command: word ?? name, values: values))
    }

    /// The action for an answer typed at one of the screen's prompts (alarm
    /// seconds, a new alarm's time, a bookmark's note, a playlist's name),
    /// read as the row's one argument (a number where the argument is one,
    /// else the text; nothing for an empty answer) and checked by the same
    /// parse and ranges as the socket's `args`. A complaint quotes what was typed.
    public func action(typed text: String) throws(RemoteArgumentError) -> RemoteAction {
        guard let parse else { throw RemoteArgumentError("\(name): only the full-screen player's keys give it") }
        let value: JSONValue
        switch arguments.first?.kind {
        case .count?, .seconds?, .number?:
            // JSON's number grammar, as the socket reads one; anything else stays text for the complaint.
            let number = try? JSONParser.parse(Array(text.utf8))
            value = number?.doubleValue == nil ? .string(text) : number!
        default:
            value = .string(text)
        }
        return try parse(RemoteArguments(command: name, values: text.isEmpty ? [] : [value], typed: true))
    }

    /// The player command the command stands for without arguments (a key
    /// press, a line of standard input); nil when it needs arguments or is
    /// not a plain player command.
    public var plainCommand: PlayerCommand? {
        guard let parse, case .perform(let command)? = try? parse(RemoteArguments(command: name, values: [])) else { return nil }
        return command
    }

    /// "seek SECONDS", "queue-add PATH...", "bookmark-add [NOTE]".
    public var usage: String {
        ([name] + arguments.map(\.placeholder)).joined(separator: " ")
    }
}

/// The groups help shows commands in, in display order.
public enum CommandSection: String, CaseIterable, Sendable {
    case playback = "Playback"
    case navigation = "Navigation"
    case audiobooks = "Audiobooks"
    case alarms = "Alarms"
    case radio = "Radio"
    case podcasts = "Podcasts"
    case alarmTesting = "Alarm and interruption testing"
    case general = "General"
}

/// One argument of a command, with the values it may take: what help, the
/// man page and completions show, and what the parse checks.
public struct CommandArgument: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Seconds within a range (a seek, a place), checked before any conversion.
        case seconds(DurationRange)
        /// A whole number within a range (an id, whole seconds).
        case count(CountRange)
        /// A fraction or factor within a range (volume 0-1, speed 0.5-3), or one of `words` (`up`, `down`).
        case number(ClosedRange<Double>, orWords: [String] = [])
        case text
        case path
    }

    /// "SECONDS", "PATH...", "[NOTE]".
    public let placeholder: String
    public let kind: Kind
    public let optional: Bool
    public let repeats: Bool

    public init(_ placeholder: String, _ kind: Kind, optional: Bool = false, repeats: Bool = false) {
        self.placeholder = optional ? "[\(placeholder)]" : repeats ? "\(placeholder)..." : placeholder
        self.kind = kind
        self.optional = optional
        self.repeats = repeats
    }
}
