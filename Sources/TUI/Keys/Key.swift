/// One key press: a printable character (any script), Ctrl with a letter,
/// or a named key.
///
/// Keys are canonical, so that a binding written one way matches the press
/// however the terminal delivers it: a terminal cannot tell Ctrl-I from Tab,
/// Ctrl-M and Ctrl-J from Enter (ncurses turns CR into LF), or Ctrl-H from
/// Backspace on many setups, so those Ctrl forms *are* the named keys; Ctrl
/// with Shift is indistinguishable from Ctrl alone, so letters are lowercase;
/// a space is the named key `space`.
public struct Key: Hashable, Sendable, Comparable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// A printable character that is one Unicode scalar (as `wget_wch` delivers it).
        case character(Character)
        /// Ctrl with a lowercase ASCII letter, other than the ones that are named keys.
        case control(Character)
        case named(NamedKey)
    }

    public let kind: Kind

    private init(kind: Kind) { self.kind = kind }

    public static func named(_ key: NamedKey) -> Key { Key(kind: .named(key)) }

    /// The key a typed character stands for (a control character becomes its
    /// canonical key, a space `space`); traps on NUL and C1 codes, which no
    /// key sends (a programming error).
    public static func character(_ character: Character) -> Key {
        guard character.unicodeScalars.count == 1, let key = Key(inputScalar: character.unicodeScalars.first!) else {
            preconditionFailure("no key sends \(character.unicodeScalars.map(\.value))")
        }
        return key
    }

    /// Ctrl with an ASCII letter; traps on anything else (a programming error).
    public static func control(_ letter: Character) -> Key {
        guard let key = controlKey(letter) else { preconditionFailure("ctrl needs an ASCII letter, not \(letter)") }
        return key
    }

    /// A key as the keys file writes it: one character (`a`, `A`, `ö`, `[`),
    /// `ctrl-LETTER`, or a `NamedKey` name. Names are case-insensitive;
    /// single characters are not (`a` and `A` are different keys).
    public init?(parsing text: String) {
        if text.unicodeScalars.count == 1, let key = Key(inputScalar: text.unicodeScalars.first!),
           case .character = key.kind {
            self = key
            return
        }
        let lowered = text.lowercased()
        if let named = NamedKey(rawValue: lowered) {
            self = .named(named)
        } else if lowered.hasPrefix(Self.controlPrefix), lowered.count == Self.controlPrefix.count + 1,
                  let key = Self.controlKey(lowered.last!) {
            self = key
        } else {
            return nil
        }
    }

    /// The key for one character read from the terminal (`wget_wch` returning
    /// `OK`), or nil for control codes no key stands for (NUL, C1 codes).
    /// Function and arrow keys arrive as ncurses key codes instead, which the
    /// terminal layer maps to `NamedKey`.
    public init?(inputScalar scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x08, 0x7F: self = .named(.backspace)
        case 0x09: self = .named(.tab)
        case 0x0A, 0x0D: self = .named(.enter)
        case 0x1B: self = .named(.escape)
        case 0x20: self = .named(.space)
        case 0x01...0x1A: self = Key(kind: .control(Character(Unicode.Scalar(scalar.value + 0x60)!)))
        case 0x00..<0x20, 0x80..<0xA0: return nil
        default: self = Key(kind: .character(Character(scalar)))
        }
    }

    private static let controlPrefix = "ctrl-"

    private static func controlKey(_ letter: Character) -> Key? {
        guard letter.isASCII, letter.isLetter, let ascii = letter.lowercased().unicodeScalars.first?.value else { return nil }
        // The byte a terminal sends for Ctrl+letter is the letter's position in the alphabet.
        return Key(inputScalar: Unicode.Scalar(ascii - 0x60)!)
    }

    /// The keys file spelling, which `init(parsing:)` reads back.
    public var description: String {
        switch kind {
        case .character(let character): String(character)
        case .control(let letter): Self.controlPrefix + String(letter)
        case .named(let named): named.rawValue
        }
    }

    /// Help-listing order: named keys (in `NamedKey` order), then characters
    /// by code point, then Ctrl keys by letter.
    public static func < (lhs: Key, rhs: Key) -> Bool { lhs.sortKey < rhs.sortKey }

    private var sortKey: (Int, UInt32) {
        switch kind {
        case .named(let named): (0, UInt32(NamedKey.allCases.firstIndex(of: named)!))
        case .character(let character): (1, character.unicodeScalars.first!.value)
        case .control(let letter): (2, letter.unicodeScalars.first!.value)
        }
    }
}
