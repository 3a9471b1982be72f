import Testing
@testable import TUI

/// The keys file: `bind KEY ACTION`, `unbind KEY`, comments; bad lines are
/// reported and skipped while the others apply.
struct KeyConfigParserTests {
    private let path = "/home/u/.config/interlude/keys"

    @Test("bind adds a key and replaces what the key did before; the other defaults stay")
    func bindAddsAndReplaces() {
        let load = KeyConfigParser.apply("bind ctrl-p play-pause\nbind n previous\nbind f1 help\n", path: path)
        #expect(load.problems == [])
        #expect(load.bindings.action(for: .control("p")) == .playPause)
        #expect(load.bindings.action(for: .named(.space)) == .playPause)
        #expect(load.bindings.action(for: .character("n")) == KeyAction(rawValue: "previous"))
        #expect(load.bindings.action(for: .named(.f1)) == .help)
        #expect(load.bindings.action(for: .character("q")) == .leave)
    }

    @Test("unbind removes a key and leaves the action's other keys")
    func unbindRemovesKey() {
        let load = KeyConfigParser.apply("unbind k\nunbind f9\n", path: path)
        #expect(load.problems == [])
        #expect(load.bindings.action(for: .character("k")) == nil)
        #expect(load.bindings.keys(for: .up) == [.named(.up)])
    }

    @Test("comments, blank lines, tabs and CRLF endings; # is a key when it is not first on the line")
    func commentsAndWhitespace() {
        let text = "# my keys\r\n\r\n\tbind\tspace\tquit\r\n  # indented comment\nbind # help\n"
        let load = KeyConfigParser.apply(text, path: path)
        #expect(load.problems == [])
        #expect(load.bindings.action(for: .named(.space)) == .quit)
        #expect(load.bindings.action(for: .character("#")) == .help)
    }

    @Test("applying to empty bindings gives exactly the file's bindings")
    func applyToEmpty() {
        let load = KeyConfigParser.apply("bind q quit\nbind ö next\nbind Q quit", path: path, to: .empty)
        #expect(load.bindings == KeyBindings([(.character("q"), .quit), (.character("ö"), KeyAction(rawValue: "next")!), (.character("Q"), .quit)]))
    }

    static let badLines: [(line: String, message: String)] = [
        ("bind q fly", "unknown action 'fly'"),
        ("bind ctrl-1 quit", "unknown key 'ctrl-1'"),
        ("bind pageup quit", "unknown key 'pageup'"),
        ("bind q", "'bind' needs a key and an action"),
        ("bind", "'bind' needs a key and an action"),
        ("bind q quit now", "unexpected 'now' after 'bind q quit'"),
        ("unbind", "'unbind' needs a key"),
        ("unbind q w", "unexpected 'w' after 'unbind q'"),
        ("unbind blah", "unknown key 'blah'"),
        ("bnd q quit", "unknown command 'bnd'"),
        ("map q quit", "unknown command 'map'"),
    ]

    @Test("a bad line is reported as PATH:LINE: message and skipped while the lines around it apply", arguments: badLines)
    func badLineIsReportedAndSkipped(line: String, message: String) throws {
        let text = "# keys\nbind F help\n\(line)\nunbind p\n"
        let load = KeyConfigParser.apply(text, path: path)
        let problem = try #require(load.problems.first)
        #expect(load.problems.count == 1)
        #expect(problem.description.hasPrefix("\(path):3: \(message)"), "\(problem)")
        #expect(load.bindings.action(for: .character("F")) == .help)
        #expect(load.bindings.action(for: .character("p")) == nil)
        // The bad line changed nothing: q still leaves the screen.
        #expect(load.bindings.action(for: .character("q")) == .leave)
    }

    @Test("every bad line is reported, two on one line when both key and action are wrong")
    func allProblemsReported() {
        let text = "bind ctrl-1 fly\nbind x next\nfoo\n\nbind q quit\nbind ctrl- seek\n"
        let load = KeyConfigParser.apply(text, path: path)
        #expect(load.problems.map(\.line) == [1, 1, 3, 6, 6])
        #expect(load.bindings.action(for: .character("x")) == KeyAction(rawValue: "next"))
    }
}
