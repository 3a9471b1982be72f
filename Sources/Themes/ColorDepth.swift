/// How many colours a terminal can show, or a theme needs.
///
/// Terminals report 0 (no colour: vt100), 8, 16, 88 or 256 colours. An
/// 88-colour terminal is treated as 16 because its palette above 16 does not
/// match the 256-colour numbering themes are written in.
public enum ColorDepth: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case monochrome = 0
    case colors8 = 8
    case colors16 = 16
    case colors256 = 256

    /// The depth for a terminal's colour count (ncurses `COLORS`, 0 when `has_colors()` is false).
    public init(colorCount: Int) {
        switch colorCount {
        case ..<8: self = .monochrome
        case ..<16: self = .colors8
        case ..<256: self = .colors16
        default: self = .colors256
        }
    }

    public static func < (lhs: ColorDepth, rhs: ColorDepth) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { self == .monochrome ? "monochrome" : "\(rawValue) colours" }
}
