/// Terminal text attributes a theme can ask for, in any combination.
public struct TextAttributes: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = TextAttributes(rawValue: 1 << 0)
    public static let dim = TextAttributes(rawValue: 1 << 1)
    public static let underline = TextAttributes(rawValue: 1 << 2)
    public static let reverse = TextAttributes(rawValue: 1 << 3)
    public static let standout = TextAttributes(rawValue: 1 << 4)
    public static let blink = TextAttributes(rawValue: 1 << 5)
    public static let italic = TextAttributes(rawValue: 1 << 6)

    /// Theme-file names, in the order `description` writes them.
    public static let named: [(name: String, attribute: TextAttributes)] = [
        ("bold", .bold), ("dim", .dim), ("underline", .underline), ("reverse", .reverse),
        ("standout", .standout), ("blink", .blink), ("italic", .italic),
    ]

    /// The attribute a theme-file word names, or nil.
    public init?(word: String) {
        let lowered = word.lowercased()
        guard let entry = Self.named.first(where: { $0.name == lowered }) else { return nil }
        self = entry.attribute
    }

    /// Comma-separated names, or `none`.
    public var description: String {
        let names = Self.named.filter { contains($0.attribute) }.map(\.name)
        return names.isEmpty ? "none" : names.joined(separator: ",")
    }
}
