/// A reply's body as MPD writes it: `key: value` lines, in order. Values are
/// written as given: a newline in one (a tag) becomes a space, so no value
/// can end a reply early or forge a line.
public struct MPDResponse: Equatable, Sendable {
    public private(set) var text = ""

    public init() {}

    public mutating func add(_ key: String, _ value: String) {
        text += key + ": "
        for character in value { text.append(character == "\n" || character == "\r" ? " " : character) }
        text += "\n"
    }

    public mutating func add(_ key: String, _ value: Int) { add(key, String(value)) }

    /// A number with three decimals (MPD's `elapsed`, `duration`).
    public mutating func add(_ key: String, milliseconds seconds: Double) {
        add(key, Self.threeDecimals(seconds))
    }

    public mutating func append(_ other: MPDResponse) { text += other.text }

    /// "12.345": never a trap, whatever the number (negative, infinite, NaN become 0).
    public static func threeDecimals(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0.000" }
        let thousandths = seconds >= 1e12 ? Int(1e15) : Int((seconds * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
