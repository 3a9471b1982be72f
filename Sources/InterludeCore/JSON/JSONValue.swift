/// A parsed or to-be-written JSON document (RFC 8259). Integers without a
/// fraction or exponent stay exact `Int64`s (alarm instants are seconds
/// since the epoch); other numbers are `Double`s.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Key order is not kept: the writer sorts keys, so files diff cleanly.
    case object([String: JSONValue])

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// An integer, also from a double with no fractional part (`3.0`), as JSON
    /// itself does not tell the two apart.
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): value
        case .double(let value): value.rounded() == value && abs(value) < 9.0e15 ? Int64(value) : nil
        default: nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }
}
