import InterludeCore

/// One request read from the control socket: a JSON object on one line,
/// `{"id": 7, "command": "seek", "args": [10]}`, with `id` an integer or a
/// string that the reply repeats. Parsing is pure (no descriptors, no
/// runtime), so the parser is unit-tested and fuzzed on its own.
public struct RemoteRequest: Equatable, Sendable {
    public var id: RemoteID
    public var action: RemoteAction

    public init(id: RemoteID, action: RemoteAction) {
        self.id = id
        self.action = action
    }
}

/// The request's `id`, repeated in its reply; `none` when the line had no
/// usable one (garbage, invalid JSON), so the error reply says `"id":null`.
public enum RemoteID: Equatable, Sendable {
    case none
    case integer(Int64)
    case string(String)

    /// As JSON text, for the reply.
    public var json: String {
        switch self {
        case .none: "null"
        case .integer(let value): String(value)
        case .string(let text): JSONWriter().quoted(text)
        }
    }
}

/// What a request asks for: most are a `PlayerCommand` for the one
/// dispatcher; the rest read the player (`status`, lists), subscribe to its
/// events, or need the state first (suspend only when not suspended).
public enum RemoteAction: Equatable, Sendable {
    case perform(PlayerCommand)
    /// Seconds from the start of the track (of the book, for a book).
    case seekTo(seconds: Double)
    case suspend
    case resumeSession
    case callStart
    case callEnd
    case status
    case queueList
    case alarmList
    /// The favourite stations, numbered from 1.
    case stationList
    /// Stream every event from now on, as `--events json` prints it.
    case subscribe
}

/// A request that cannot be carried out as written: the reply's `error`.
public struct RemoteRequestError: Error, Equatable, Sendable {
    public var id: RemoteID
    public var message: String

    public init(id: RemoteID, message: String) {
        self.id = id
        self.message = message
    }
}

extension RemoteRequest {
    /// One line, without its newline. Errors carry the id when it could be
    /// read, so a script matches them to its request.
    public static func parse(_ line: [UInt8]) throws(RemoteRequestError) -> RemoteRequest {
        let value: JSONValue
        do { value = try JSONParser.parse(line) } catch {
            throw RemoteRequestError(id: .none, message: "invalid JSON: \(error.description)")
        }
        guard case .object(let members) = value else {
            throw RemoteRequestError(id: .none, message: "a request is a JSON object with \"id\" and \"command\"")
        }
        let id: RemoteID
        switch members["id"] {
        case .integer(let number)?: id = .integer(number)
        case .string(let text)?: id = .string(text)
        case nil: throw RemoteRequestError(id: .none, message: "the request has no \"id\" (an integer or a string)")
        default: throw RemoteRequestError(id: .none, message: "\"id\" must be an integer or a string")
        }
        guard let name = members["command"]?.stringValue else {
            throw RemoteRequestError(id: id, message: "\"command\" must be a string (one of: \(RemoteVocabulary.names))")
        }
        let arguments: [JSONValue]
        switch members["args"] {
        case nil, .null?: arguments = []
        case .array(let elements)?: arguments = elements
        default: throw RemoteRequestError(id: id, message: "\"args\" must be an array")
        }
        guard let entry = RemoteVocabulary.entry(named: name) else {
            throw RemoteRequestError(id: id, message: "unknown command '\(name)' (one of: \(RemoteVocabulary.names))")
        }
        do {
            // Complaints name the word the script wrote (an alias, perhaps).
            return RemoteRequest(id: id, action: try entry.action(arguments, calledAs: name))
        } catch {
            throw RemoteRequestError(id: id, message: error.message)
        }
    }
}

/// Why a command's arguments do not fit it: "volume: expects a number from 0 to 1, not a string".
public struct RemoteArgumentError: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// A command's `args`, read by type with one clear complaint each.
public struct RemoteArguments: Sendable {
    public let command: String
    public let values: [JSONValue]
    /// Typed at the screen's prompt: a complaint quotes a text as typed
    /// ("not 'soon'"), where a socket's names its JSON type ("not a string").
    let typed: Bool

    public init(command: String, values: [JSONValue]) {
        self.init(command: command, values: values, typed: false)
    }

    init(command: String, values: [JSONValue], typed: Bool) {
        self.command = command
        self.values = values
        self.typed = typed
    }

    /// The first `count` values, or those after them: a command of two
    /// arguments (`station-rename N NAME`) reads each with the checks above.
    func prefix(_ count: Int) -> RemoteArguments {
        RemoteArguments(command: command, values: Array(values.prefix(count)), typed: typed)
    }

    func dropFirst(_ count: Int) -> RemoteArguments {
        RemoteArguments(command: command, values: Array(values.dropFirst(count)), typed: typed)
    }

    /// The same command with `value` as its one argument (a text read into a number, checked as one).
    func replacing(with value: JSONValue) -> RemoteArguments {
        RemoteArguments(command: command, values: [value], typed: typed)
    }

    func none() throws(RemoteArgumentError) {
        guard values.isEmpty else { throw RemoteArgumentError("\(command): takes no arguments") }
    }

    func number(_ what: String, in range: ClosedRange<Double>) throws(RemoteArgumentError) -> Double {
        guard values.count == 1 else { throw RemoteArgumentError("\(command): expects one argument, \(what)") }
        guard let number = values[0].doubleValue, number.isFinite, range.contains(number) else {
            throw RemoteArgumentError("\(command): expects \(what), not \(describe(values[0]))")
        }
        return number
    }

    /// Seconds within `range`, checked before anything converts them (MPRIS's `Seek(INT64_MAX)` among them).
    func seconds(_ what: String, in range: DurationRange) throws(RemoteArgumentError) -> Double {
        guard values.count == 1 else { throw RemoteArgumentError("\(command): expects one argument, \(what)") }
        guard let number = values[0].doubleValue, range.contains(number) else {
            throw RemoteArgumentError("\(command): expects \(what) within \(Self.bounds(range)), not \(describe(values[0]))")
        }
        return number
    }

    func integer(_ what: String, in range: CountRange) throws(RemoteArgumentError) -> Int {
        guard values.count == 1 else { throw RemoteArgumentError("\(command): expects one argument, \(what)") }
        guard let number = values[0].integerValue, let checked = range.checked(number) else {
            throw RemoteArgumentError("\(command): expects \(what), not \(describe(values[0]))")
        }
        return checked
    }

    /// `counts` whole numbers (queue positions and counts), each within `range`.
    func integers(_ what: String, in range: CountRange, counts: ClosedRange<Int>) throws(RemoteArgumentError) -> [Int] {
        guard counts.contains(values.count) else { throw RemoteArgumentError("\(command): expects \(what)") }
        var numbers: [Int] = []
        for value in values {
            guard let number = value.integerValue, let checked = range.checked(number) else {
                throw RemoteArgumentError("\(command): expects \(what), not \(describe(value))")
            }
            numbers.append(checked)
        }
        return numbers
    }

    /// "-3600000 to 3600000 s".
    private static func bounds(_ range: DurationRange) -> String {
        "\(Int(range.seconds.lowerBound)) to \(Int(range.seconds.upperBound)) s"
    }

    func string(_ what: String) throws(RemoteArgumentError) -> String {
        guard values.count == 1 else { throw RemoteArgumentError("\(command): expects one argument, \(what)") }
        guard let text = values[0].stringValue, !text.isEmpty else {
            throw RemoteArgumentError("\(command): expects \(what), not \(describe(values[0]))")
        }
        return text
    }

    func optionalString(_ what: String) throws(RemoteArgumentError) -> String? {
        if values.isEmpty { return nil }
        return try string(what)
    }

    func strings(_ what: String) throws(RemoteArgumentError) -> [String] {
        guard !values.isEmpty else { throw RemoteArgumentError("\(command): expects \(what)") }
        var texts: [String] = []
        for value in values {
            guard let text = value.stringValue, !text.isEmpty else {
                throw RemoteArgumentError("\(command): expects \(what), not \(describe(value))")
            }
            texts.append(text)
        }
        return texts
    }

    /// How a wrong value is named in a complaint: its type, and a short number as itself.
    func describe(_ value: JSONValue) -> String {
        if typed, case .string(let text) = value { return "'\(text)'" }
        return Self.describe(value)
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .integer(let number): String(number)
        case .double(let number): number.description
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
