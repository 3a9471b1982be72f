import InterludeCore

/// Builds one JSON object on one line, fields in the order they were added,
/// numbers in fixed point (`12.345`, never an exponent). Strings are escaped by
/// InterludeCore's `JSONWriter`.
public struct JSONLine: Sendable {
    private var body = ""
    /// The fields so far, values encoded as in `text`.
    public private(set) var fields: [(key: String, value: String)] = []

    public init() {}

    public mutating func add(_ key: String, _ value: String) {
        append(key, Self.quoted(value))
    }

    public mutating func add(_ key: String, _ value: Double, decimals: Int = 3) {
        append(key, Self.number(value, decimals: decimals))
    }

    public mutating func add(_ key: String, _ value: Int) { append(key, String(value)) }
    public mutating func add(_ key: String, _ value: Bool) { append(key, value ? "true" : "false") }
    public mutating func addNull(_ key: String) { append(key, "null") }

    /// Adds an already-encoded JSON value (an array or object).
    public mutating func addRaw(_ key: String, _ json: String) { append(key, json) }

    // These add nothing for nil or an empty list: a field the value lacks is left out.
    public mutating func add(_ key: String, ifPresent value: String?) { if let value { add(key, value) } }
    public mutating func add(_ key: String, ifPresent value: Int?) { if let value { add(key, value) } }
    public mutating func add(_ key: String, ifPresent value: Double?, decimals: Int) { if let value { add(key, value, decimals: decimals) } }

    /// A list of strings as a JSON array; nothing when empty.
    public mutating func add(_ key: String, strings values: [String]) {
        if !values.isEmpty { append(key, "[" + values.map(Self.quoted).joined(separator: ",") + "]") }
    }

    public var text: String { "{" + body + "}" }

    private mutating func append(_ key: String, _ encoded: String) {
        fields.append((key, encoded))
        if !body.isEmpty { body += "," }
        body += Self.quoted(key) + ":" + encoded
    }

    /// A fixed-point number without exponent, e.g. 12.345.
    public static func number(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        var fraction = String(Int(scaled) - whole * Int(scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return decimals == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    public static func quoted(_ string: String) -> String {
        JSONWriter().quoted(string)
    }
}
