import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// No terminal escape from a file reaches a terminal.
/// A title tag (and a file name, a label, a note) holding `ESC ] 0 ; x BEL
/// ESC [ 2 J` and C1's CSI (U+009B) is printed by each command with its
/// control characters escaped: no byte below 0x20 but newline and tab, no
/// DEL, no C1 in UTF-8 (`C2 80`-`C2 9F`), in stdout or stderr.
@Suite(.serialized) struct TerminalEscapeTests {
    static let hostile = "\u{1B}]0;x\u{07}\u{1B}[2J\u{9B}31m"
    /// How `hostile` prints.
    static let shown = "\\e]0;x\\x07\\e[2J\\u{9b}31m"

    /// No byte a terminal acts on, other than newline and tab.
    static func unsafeBytes(_ data: Data) -> [String] {
        var found: [String] = []
        var previous: UInt8 = 0
        for byte in data {
            if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F || (previous == 0xC2 && (0x80..<0xA0).contains(byte)) {
                found.append(String(format: "%02x", byte))
            }
            previous = byte
        }
        return found
    }

    static func expectSafe(_ result: ProcessResult, _ what: String, shows: Bool = true,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(unsafeBytes(result.stdout).isEmpty && unsafeBytes(result.stderr).isEmpty,
                "\(what): \(unsafeBytes(result.stdout)) in stdout, \(unsafeBytes(result.stderr)) in stderr: \(result.summary)",
                sourceLocation: sourceLocation)
        if shows {
            #expect((result.stdoutText + result.stderrText).contains(shown), "\(what) shows the text escaped: \(result.summary)",
                    sourceLocation: sourceLocation)
        }
    }

    static func syncsafe(_ value: Int) -> [UInt8] {
        [UInt8((value >> 21) & 0x7F), UInt8((value >> 14) & 0x7F), UInt8((value >> 7) & 0x7F), UInt8(value & 0x7F)]
    }

    /// An MP3 whose ID3v2.4 title, artist and album (UTF-8) hold `hostile`, named with it too.
    static func hostileFixture() throws -> String {
        let audio = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.mp3(.sweep, seconds: 20)))
        var frames: [UInt8] = []
        for id in ["TIT2", "TPE1", "TALB"] {
            let body = [UInt8(3)] + Array(("title " + hostile).utf8)
            frames += Array(id.utf8) + syncsafe(body.count) + [0, 0] + body
        }
        let tag = Array("ID3".utf8) + [4, 0, 0] + syncsafe(frames.count) + frames
        let directory = ScratchFiles.makeDirectory("terminal-escape") + "/music"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/name " + hostile + ".mp3"
        try (Data(tag) + audio).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("info, play's errors, --events json, alarm list, bookmark list and library search print a hostile tag, name, label and note escaped")
    func commandLineOutputHoldsNoRawControlCharacter() throws {
        let file = try Self.hostileFixture()
        let home = ScratchFiles.makeDirectory("terminal-escape-home")
        try FileManager.default.createDirectory(atPath: home + "/config/interlude", withIntermediateDirectories: true)
        try "library = \((file as NSString).deletingLastPathComponent)\n"
            .write(toFile: home + "/config/interlude/config", atomically: true, encoding: .utf8)
        let environment = ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state",
                           "XDG_CACHE_HOME": home + "/cache", "XDG_RUNTIME_DIR": ""]

        Self.expectSafe(try InterludeBinary.run(["info", file], environment: environment), "info")
        let missing = (file as NSString).deletingLastPathComponent + "/gone " + Self.hostile + ".mp3"
        Self.expectSafe(try InterludeBinary.run(["play", missing, "--output", "null"], environment: environment), "play's error")
        let events = try InterludeBinary.run(["play", file, "--output", "null", "--events", "json"], environment: environment)
        Self.expectSafe(events, "--events json", shows: false)
        #expect(events.stdoutText.contains("\\u001b]0;x\\u0007\\u001b[2J\\u009b31m"), "JSON escapes: \(events.stdoutText.prefix(600))")

        let added = try InterludeBinary.run(["alarm", "add", "08:00", "--label", "label " + Self.hostile], environment: environment)
        Self.expectSafe(added, "alarm add", shows: false)
        if added.succeeded {
            Self.expectSafe(try InterludeBinary.run(["alarm", "list"], environment: environment), "alarm list")
        }
        let book = (file as NSString).deletingLastPathComponent
        let marked = try InterludeBinary.run(["bookmark", "add", book, "--at", "0:05", "--note", "note " + Self.hostile],
                                             environment: environment)
        Self.expectSafe(marked, "bookmark add", shows: false)
        if marked.succeeded {
            Self.expectSafe(try InterludeBinary.run(["bookmark", "list", book], environment: environment), "bookmark list")
        }
        Self.expectSafe(try InterludeBinary.run(["library", "scan"], environment: environment), "library scan", shows: false)
        Self.expectSafe(try InterludeBinary.run(["library", "search", "title"], environment: environment), "library search")
    }

    @Test("remote status and remote queue list print a hostile title escaped")
    func remoteOutputHoldsNoRawControlCharacter() throws {
        let file = try Self.hostileFixture()
        let runtime = try Remote.makeRuntimeDirectory()
        let sink = try PulseServer.shared().makeSink()
        var environment = sink.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        let player = try BackgroundProcess.start(InterludeBinary.path(), ["play", file, "--device", "pulse"],
                                                 environment: environment, stdout: .discard, stderr: .discard)
        defer { _ = player.stop() }
        #expect(Remote.waitForPlayer(runtime))
        Self.expectSafe(try Remote.run(runtime, ["status"]), "remote status")
        Self.expectSafe(try Remote.run(runtime, ["queue", "list"]), "remote queue list")
        let json = try Remote.run(runtime, ["status", "--json"])
        Self.expectSafe(json, "remote status --json", shows: false)
        #expect(json.stdoutText.contains("\\u001b]0;x"), "\(json.stdoutText)")
    }
}
