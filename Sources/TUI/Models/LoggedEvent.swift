/// One event as the player prints it with `--events json`: time, name and
/// the fields in order. The event log and the banner are fed from these.
public struct LoggedEvent: Equatable, Sendable {
    public enum Value: Equatable, Sendable, CustomStringConvertible {
        case string(String)
        case number(Double)
        case bool(Bool)
        /// An encoded JSON value (arrays), shown as it is.
        case raw(String)
        case null

        public var description: String {
            switch self {
            case .string(let text): text
            case .number(let number): Self.format(number)
            case .bool(let flag): flag ? "true" : "false"
            case .raw(let json): json
            case .null: "null"
            }
        }

        private static func format(_ number: Double) -> String {
            if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
            return Value.number(number).fixed(3)
        }
    }

    /// Seconds since the player started, on the player's clock.
    public var time: Double
    public var name: String
    public var fields: [(key: String, value: Value)]

    public init(time: Double, name: String, fields: [(key: String, value: Value)] = []) {
        self.time = time
        self.name = name
        self.fields = fields
    }

    public subscript(key: String) -> Value? { fields.first { $0.key == key }?.value }

    public func string(_ key: String) -> String? {
        if case .string(let text)? = self[key] { return text }
        return nil
    }

    public func number(_ key: String) -> Double? {
        if case .number(let number)? = self[key] { return number }
        return nil
    }

    public func bool(_ key: String) -> Bool? {
        if case .bool(let flag)? = self[key] { return flag }
        return nil
    }

    public static func == (lhs: LoggedEvent, rhs: LoggedEvent) -> Bool {
        lhs.time == rhs.time && lhs.name == rhs.name && lhs.fields.map(\.key) == rhs.fields.map(\.key)
            && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }

    /// `name key=value ...`, the log pane's text after the time.
    public var summary: String {
        ([name] + fields.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
    }
}
