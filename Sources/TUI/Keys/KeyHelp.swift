/// The help listing (`?`): every action grouped by section, with its keys.
///
/// Deterministic: sections in `KeySection` order, actions in `KeyAction`
/// order, keys in `Key` order. Unbound actions are listed too, marked
/// `(unbound)`, so the listing doubles as the list of names for the keys file.
public enum KeyHelp {
    public struct Entry: Equatable, Sendable {
        public let action: KeyAction
        /// Empty when the action is unbound.
        public let keys: [Key]
    }

    public struct Section: Equatable, Sendable {
        public let section: KeySection
        public let entries: [Entry]
    }

    public static let unboundMarker = "(unbound)"

    /// The listing as data, for a UI that measures and styles columns itself.
    public static func sections(for bindings: KeyBindings) -> [Section] {
        KeySection.allCases.map { section in
            Section(section: section, entries: KeyAction.allCases.filter { $0.section == section }.map {
                Entry(action: $0, keys: bindings.keys(for: $0))
            })
        }
    }

    /// The listing as text: a heading per section, then one line per action,
    /// `  KEYS  ACTION-NAME  summary` in aligned columns, a blank line between
    /// sections. Columns are aligned by character count; a UI showing wide
    /// (CJK) key characters should use `sections(for:)` and measure itself.
    public static func lines(for bindings: KeyBindings) -> [String] {
        let sections = sections(for: bindings)
        let entries = sections.flatMap(\.entries)
        let keyWidth = entries.map { keysText($0).count }.max() ?? 0
        let nameWidth = entries.map { $0.action.rawValue.count }.max() ?? 0
        var lines: [String] = []
        for section in sections {
            if !lines.isEmpty { lines.append("") }
            lines.append(section.section.rawValue)
            for entry in section.entries {
                lines.append("  " + padded(keysText(entry), keyWidth) + "  " + padded(entry.action.rawValue, nameWidth)
                             + "  " + entry.action.summary)
            }
        }
        return lines
    }

    private static func keysText(_ entry: Entry) -> String {
        entry.keys.isEmpty ? unboundMarker : entry.keys.map(\.description).joined(separator: " ")
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
