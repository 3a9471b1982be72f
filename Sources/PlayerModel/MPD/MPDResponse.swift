/// A reply's body as MPD writes it: `key: value` lines, in order, and for
/// `albumart` and `readpicture` a chunk of raw bytes (`binary`). Values are
/// written as given: a newline in one (a tag) becomes a space, so no value
/// can end a reply early or forge a line.
public struct MPDResponse: Equatable, Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func add(_ key: String, _ value: String) {
        bytes += key.utf8
        bytes += [UInt8(ascii: ":"), UInt8(ascii: " ")]
        for byte in value.utf8 { bytes.append(byte == 0x0A || byte == 0x0D ? 0x20 : byte) }
        bytes.append(0x0A)
    }

    public mutating func add(_ key: String, _ value: Int) { add(key, String(value)) }

    /// A number with three decimals (MPD's `elapsed`, `duration`).
    public mutating func add(_ key: String, milliseconds seconds: Double) {
        add(key, Self.threeDecimals(seconds))
    }

    /// MPD's binary response: `binary: N`, the N bytes as they are, a newline.
    public mutating func addBinary(_ chunk: ArraySlice<UInt8>) {
        add("binary", chunk.count)
        bytes += chunk
        bytes.append(0x0A)
    }

    public mutating func append(_ other: MPDResponse) { bytes += other.bytes }

    /// "12.345": never a trap, whatever the number (negative, infinite, NaN become 0).
    public static func threeDecimals(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0.000" }
        let thousandths = seconds >= 1e12 ? Int(1e15) : Int((seconds * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
