/// A reply's body as MPD writes it: `key: value` lines, in order, and for
/// `albumart` and `readpicture` a chunk of raw bytes (`binary`). Values are
/// written as given: a newline in one (a tag) becomes a space, so no value
/// can end a reply early or forge a line.
public struct MPDResponse: Equatable, Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// A response that will hold about `capacity` bytes, made without growing.
    public init(capacity: Int) { bytes.reserveCapacity(capacity) }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func add(_ key: String, _ value: String) {
        startLine(key)
        var value = value
        // A reply of ten thousand songs is a hundred thousand lines: the value's
        // bytes are copied at once, and only one that holds a line break is rewritten.
        value.withUTF8 { utf8 in
            guard utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 { bytes.append(byte == 0x0A || byte == 0x0D ? 0x20 : byte) }
        }
        bytes.append(0x0A)
    }

    public mutating func add(_ key: String, _ value: Int) {
        startLine(key)
        appendDecimal(value)
        bytes.append(0x0A)
    }

    /// A number with three decimals (MPD's `elapsed`, `duration`), as `threeDecimals` writes it.
    public mutating func add(_ key: String, milliseconds seconds: Double) {
        startLine(key)
        let thousandths = Self.thousandths(seconds)
        appendDecimal(thousandths / 1000)
        bytes.append(UInt8(ascii: "."))
        let fraction = thousandths % 1000
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
        bytes.append(0x0A)
    }

    /// `KEY: FIRST:SECOND` (`status`' `time`, whole seconds heard and in all).
    public mutating func add(_ key: String, _ first: Int, _ second: Int) {
        startLine(key)
        appendDecimal(first)
        bytes.append(UInt8(ascii: ":"))
        appendDecimal(second)
        bytes.append(0x0A)
    }

    private mutating func startLine(_ key: String) {
        bytes += key.utf8
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
    }

    /// MPD's binary response: `binary: N`, the N bytes as they are, a newline.
    public mutating func addBinary(_ chunk: ArraySlice<UInt8>) {
        add("binary", chunk.count)
        bytes += chunk
        bytes.append(0x0A)
    }

    public mutating func append(_ other: MPDResponse) { bytes += other.bytes }

    /// Lines written before (a song's, kept), as they are.
    public mutating func append(lines: [UInt8]) { bytes += lines }

    public mutating func reserveCapacity(_ count: Int) { bytes.reserveCapacity(count) }

    /// The reply as sent: the body, then `OK` unless it is one of a command list's.
    public consuming func finished(ok: Bool) -> [UInt8] {
        if ok { bytes += "OK\n".utf8 }
        return bytes
    }

    /// `value` in decimal, as `String(value)` writes it, without making the string.
    private mutating func appendDecimal(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // Int.min's magnitude does not fit an Int; its unsigned one does.
        var magnitude = value.magnitude
        let first = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        // Swapped in place: reversing `bytes[first...]` copied the slice.
        var low = first, high = bytes.count - 1
        while low < high {
            bytes.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    /// "12.345": never a trap, whatever the number (negative, infinite, NaN become 0).
    public static func threeDecimals(_ seconds: Double) -> String {
        let thousandths = thousandths(seconds)
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    private static func thousandths(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return seconds >= 1e12 ? Int(1e15) : Int((seconds * 1000).rounded())
    }
}
