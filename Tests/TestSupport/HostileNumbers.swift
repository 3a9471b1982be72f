import InterludeCore

/// Number-shaped text that a careless or curious user types, for the tests
/// that prove no parser of durations, times or counts can crash: huge, tiny,
/// negative, NaN, infinite, overflowing and non-numeric values, with units
/// and without. The fixed list comes first; then a seeded stream, so a
/// failing value is reproduced by its seed and index.
public struct HostileNumbers: Sequence, IteratorProtocol {
    public static let fixed = [
        "0", "-0", "1", "-1", "0.0001", "1e-320", "-1e-320", "9e18", "9e18s", "1e300", "1e300s", "-1e300", "1e308h",
        "99999999999999999999", "99999999999999999999s", "-99999999999999999999", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "18446744073709551616ms", "nan", "NaN", "-nan", "inf", "-inf",
        "infinity", "+inf", "0x1p1023", "1e", "e5", "", " ", "5 s", "٣", "５", "1_000", "1,5", "..", "-", "+", "s", "ms",
        "1:99", "99999999999999999999:00", "1:2:3:4", "-1:00", "1h30m", "07:30", "25:61", "in", "🙂", "12abc",
    ]

    public let seed: UInt64
    private var generator: SeededGenerator
    private var fixedIndex = 0
    private var remaining: Int

    /// The fixed values, then `randomCount` values drawn from `seed`.
    public init(seed: UInt64, randomCount: Int) {
        self.seed = seed
        generator = SeededGenerator(seed: seed)
        remaining = randomCount
    }

    public mutating func next() -> String? {
        if fixedIndex < Self.fixed.count {
            defer { fixedIndex += 1 }
            return Self.fixed[fixedIndex]
        }
        guard remaining > 0 else { return nil }
        remaining -= 1
        return random()
    }

    private mutating func random() -> String {
        let units = ["", "", "s", "ms", "m", "h", "x", "min", "d"]
        let unit = units[Int(generator.next() % UInt64(units.count))]
        let sign = generator.next() % 4 == 0 ? "-" : ""
        switch generator.next() % 6 {
        case 0: // Many digits: past every integer type.
            let count = 1 + Int(generator.next() % 40)
            return sign + String((0..<count).map { _ in Character(String(generator.next() % 10)) }) + unit
        case 1: // Exponents from tiny to overflowing.
            let exponent = Int(generator.next() % 700) - 350
            return "\(sign)\(1 + generator.next() % 9)e\(exponent)\(unit)"
        case 2: // Doubles across the whole range, NaN and the infinities included.
            return "\(sign)\(Double(bitPattern: generator.next()))\(unit)"
        case 3: // Ordinary small values, in range or just outside.
            return "\(sign)\(Int(generator.next() % 5000))\(generator.next() % 2 == 0 ? ".5" : "")\(unit)"
        case 4: // Clock times.
            return "\(sign)\(generator.next() % 100_000):\(generator.next() % 100)"
        default: // Printable garbage.
            let count = Int(generator.next() % 12)
            return String((0..<count).map { _ in Character(Unicode.Scalar(UInt8(33 + generator.next() % 94))) })
        }
    }
}
