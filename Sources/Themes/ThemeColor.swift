/// One colour in a theme: the terminal's own default, or a palette index.
///
/// Indices follow the xterm 256-colour numbering every colour terminal uses:
/// 0-7 the named colours, 8-15 their bright forms, 16-231 a 6x6x6 cube and
/// 232-255 a grey ramp. The names in theme files (`red`, `bright-red`) are
/// spellings of indices 0-15, so `bright-red` and `9` are the same colour.
public enum ThemeColor: Hashable, Sendable, CustomStringConvertible {
    /// The terminal's own foreground or background (ncurses colour -1 after `use_default_colors`).
    case terminalDefault
    case index(UInt8)

    /// The eight basic names, in palette order (index 0-7).
    public static let basicNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
    /// The prefix that names the bright half of the 16-colour set (`bright-red` is index 9).
    public static let brightPrefix = "bright-"

    /// The colour a theme-file word names, or nil when the word is no colour.
    /// Numbers outside 0-255 are nil too; the parser tells the two cases apart for its message.
    public init?(word: String) {
        let lowered = word.lowercased()
        if lowered == "default" {
            self = .terminalDefault
        } else if let basic = Self.basicNames.firstIndex(of: lowered) {
            self = .index(UInt8(basic))
        } else if lowered.hasPrefix(Self.brightPrefix),
                  let basic = Self.basicNames.firstIndex(of: String(lowered.dropFirst(Self.brightPrefix.count))) {
            self = .index(UInt8(basic + 8))
        } else if let number = UInt8(lowered) {
            self = .index(number)
        } else {
            return nil
        }
    }

    /// The fewest colours a terminal needs to show this colour unchanged.
    public var depthNeeded: ColorDepth {
        switch self {
        case .terminalDefault: .colors8
        case .index(let index) where index < 8: .colors8
        case .index(let index) where index < 16: .colors16
        case .index: .colors256
        }
    }

    /// The number ncurses `init_pair` takes: -1 for the terminal default.
    public var terminalNumber: Int {
        switch self {
        case .terminalDefault: -1
        case .index(let index): Int(index)
        }
    }

    /// The spelling a theme file would use: a name for 0-15, the number above.
    public var description: String {
        switch self {
        case .terminalDefault: "default"
        case .index(let index) where index < 8: Self.basicNames[Int(index)]
        case .index(let index) where index < 16: Self.brightPrefix + Self.basicNames[Int(index) - 8]
        case .index(let index): String(index)
        }
    }
}
