import Testing
@testable import TUI

/// The `?` listing: grouped by section, deterministic, every binding once.
struct KeyHelpTests {
    static let bindingSets: [(String, KeyBindings)] = [
        ("defaults", .defaults),
        ("customised", KeyConfigParser.apply("unbind space\nbind ctrl-p play-pause\nunbind m\nbind # help", path: "k").bindings),
    ]

    @Test("every binding appears exactly once, under its action", arguments: bindingSets)
    func everyBindingAppearsOnce(_ name: String, bindings: KeyBindings) {
        let entries = KeyHelp.sections(for: bindings).flatMap(\.entries)
        // Declaration order is grouped by section, so the listing keeps it.
        #expect(entries.map(\.action) == KeyAction.allCases)
        for section in KeyHelp.sections(for: bindings) {
            #expect(section.entries.allSatisfy { $0.action.section == section.section })
        }
        let listed = entries.flatMap { entry in entry.keys.map { "\($0) \(entry.action.rawValue)" } }
        let bound = bindings.all.map { "\($0.key) \($0.action.rawValue)" }
        #expect(listed.sorted() == bound.sorted())
        #expect(Set(listed).count == listed.count)
    }

    /// Splits a row into its keys column and action name by the action
    /// column's offset (a key can share an action's name: `up`).
    private func columns(_ lines: [String]) throws -> [(keys: [String], action: String, summary: String)] {
        let first = try #require(lines.first { $0.hasPrefix("  ") })
        let offset = first.distance(from: first.startIndex, to: try #require(first.firstRange(of: "play-pause")).lowerBound)
        return lines.filter { $0.hasPrefix("  ") }.map { row in
            let keys = row.prefix(offset).split(separator: " ").map(String.init)
            let rest = row.dropFirst(offset)
            let action = String(rest.prefix { $0 != " " })
            return (keys, action, String(rest.dropFirst(action.count).drop { $0 == " " }))
        }
    }

    @Test("the text listing has each action on one line, in one column, with exactly its keys", arguments: bindingSets)
    func textListsEachActionOnce(_ name: String, bindings: KeyBindings) throws {
        let rows = try columns(KeyHelp.lines(for: bindings))
        #expect(rows.map(\.action) == KeyAction.allCases.map(\.rawValue))
        for (row, action) in zip(rows, KeyAction.allCases) {
            let expected = bindings.keys(for: action).map(\.description)
            #expect(row.keys == (expected.isEmpty ? [KeyHelp.unboundMarker] : expected), "\(action.rawValue)")
            #expect(row.summary == action.summary)
        }
    }

    @Test("sections appear in order with their headings, separated by a blank line")
    func sectionsInOrder() {
        let lines = KeyHelp.lines(for: .defaults)
        let headings = lines.filter { !$0.isEmpty && !$0.hasPrefix(" ") }
        #expect(headings == KeySection.allCases.map(\.rawValue))
        #expect(lines.first == "Playback")
        for (index, line) in lines.enumerated() where index > 0 && headings.contains(line) {
            #expect(lines[index - 1] == "")
        }
    }

    @Test("an unbound action is listed as unbound")
    func unboundActionIsMarked() {
        let lines = KeyHelp.lines(for: KeyConfigParser.apply("unbind m", path: "k").bindings)
        #expect(lines.contains { $0.hasPrefix("  \(KeyHelp.unboundMarker) ") && $0.contains(" bookmark-add ") })
    }

    @Test("the listing is the same on every call")
    func deterministic() {
        let lines = KeyHelp.lines(for: .defaults)
        #expect(lines == KeyHelp.lines(for: .defaults))
        // The keys' column is as wide as the widest keys ("backspace").
        #expect(lines[1] == "  space      play-pause              play or pause")
        #expect(lines.contains("  up k       up                      move up"))
        #expect(lines.contains("  s          session-suspend-toggle  suspend or continue the audio session"))
    }
}
