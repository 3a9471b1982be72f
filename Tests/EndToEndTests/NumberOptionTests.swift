import Foundation
import Testing
import TestSupport

/// Every numeric option of the command line, fed what a new user might type
/// (huge, tiny, negative, NaN, infinite, non-numeric, and a seeded stream of
/// more): each run ends by itself with exit 0 (accepted) or 2 (refused, with
/// one line saying what the option accepts), never a signal.
@Suite(.serialized) struct NumberOptionTests {
    /// Print this with a failure: the same seed gives the same values.
    static let seed: UInt64 = 0x1_5EED_0016

    struct Template: CustomStringConvertible {
        let arguments: (String) -> [String]
        let name: String
        /// Exit 1 is right for a well-formed number that names nothing (no such alarm or bookmark).
        var notFoundAllowed = false
        /// Random values too (a valid one must not start minutes of work).
        var random = true
        var description: String { name }
    }

    static func templates(file: String, book: String) -> [Template] {
        let play = ["play", file, "--output", "null"]
        let playBook = ["play", book, "--output", "null"]
        // Staged ends are paired so that an accepted value renders at most the
        // file's half second: the parse and every conversion run all the same.
        return [
            Template(arguments: { play + ["--alarm-in", $0] }, name: "--alarm-in"),
            Template(arguments: { play + ["--alarm-in", "1h", "--alarm-ring", $0] }, name: "--alarm-ring"),
            Template(arguments: { play + ["--suspend-at", $0, "--continue-at", "0.2"] }, name: "--suspend-at"),
            Template(arguments: { play + ["--suspend-at", "7d", "--continue-at", $0] }, name: "--continue-at"),
            Template(arguments: { play + ["--notify-at", $0] }, name: "--notify-at"),
            Template(arguments: { play + ["--call-at", $0, "--call-end", "0.3"] }, name: "--call-at"),
            Template(arguments: { play + ["--call-at", "604799", "--call-end", $0] }, name: "--call-end"),
            Template(arguments: { play + ["--resume-delay", $0] }, name: "--resume-delay"),
            Template(arguments: { play + ["--smart-rewind", $0, "--spoken"] }, name: "--smart-rewind"),
            Template(arguments: { play + ["--fade", $0] }, name: "--fade"),
            Template(arguments: { play + ["--latency", $0] }, name: "--latency"),
            Template(arguments: { play + ["--speed", $0] }, name: "--speed"),
            Template(arguments: { playBook + ["--sleep", $0] }, name: "--sleep"),
            Template(arguments: { playBook + ["--bookmark", $0] }, name: "--bookmark"),
            Template(arguments: { playBook + ["--skip", $0] }, name: "--skip"),
            Template(arguments: { ["bookmark", "add", book, "--at", $0] }, name: "bookmark add --at"),
            Template(arguments: { ["bookmark", "delete", book, $0] }, name: "bookmark delete", notFoundAllowed: true),
            Template(arguments: { ["alarm", "add", "in", $0] }, name: "alarm add in"),
            Template(arguments: { ["alarm", "add", $0] }, name: "alarm add TIME"),
            Template(arguments: { ["alarm", "add", "07:30", "--snooze", $0] }, name: "alarm add --snooze"),
            Template(arguments: { ["alarm", "add", "07:30", "--ring", $0] }, name: "alarm add --ring"),
            Template(arguments: { ["alarm", "rm", $0] }, name: "alarm rm", notFoundAllowed: true),
            Template(arguments: { ["alarm", "enable", $0] }, name: "alarm enable", notFoundAllowed: true),
            Template(arguments: { ["bench", "seek", file, "--points", $0] }, name: "bench seek --points", random: false),
        ]
    }

    @Test("every numeric option answers any value with exit 0 or 2 and at most one line, never a signal")
    func hostileValues() throws {
        let file = try Fixtures.mp3(.sweep, seconds: 0.5)
        let root = ScratchFiles.makeDirectory("numbers")
        let book = root + "/book"
        try FileManager.default.createDirectory(atPath: book, withIntermediateDirectories: true)
        for index in 1...2 { try FileManager.default.copyItem(atPath: file, toPath: "\(book)/\(index).mp3") }
        let environment = ["XDG_STATE_HOME": root + "/state", "XDG_CONFIG_HOME": root + "/config"]

        var runs = 0
        for template in Self.templates(file: file, book: book) {
            for (index, value) in HostileNumbers(seed: Self.seed, randomCount: template.random ? 8 : 0).enumerated() {
                let arguments = template.arguments(value)
                let result = try InterludeBinary.run(arguments, environment: environment, timeout: 30)
                runs += 1
                let lines = result.stderrText.split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { !$0.isEmpty }
                let context = "\(template) '\(value)' (seed \(Self.seed), value \(index)): \(result.summary)"
                #expect(result.terminatingSignal == nil && !result.timedOut, "\(context)")
                let allowed: Set<Int32> = template.notFoundAllowed ? [0, 1, 2] : [0, 2]
                #expect(result.exitStatus.map(allowed.contains) == true, "\(context)")
                if result.exitStatus == 1 { #expect(result.stderrText.contains("no "), "\(context)") }
                #expect(lines.count <= 1, "\(context)")
                if result.exitStatus == 2, template.name.hasPrefix("--") || template.name.contains(" --") {
                    // A refusal says what would be accepted (a range, or the bound the value passed).
                    let phrases = [" from ", "steps of", "go together", "come after", "'chapter'", "past the end",
                                   "has no bookmark"]
                    #expect(phrases.contains { lines.first?.contains($0) == true }, "\(context)")
                }
            }
        }
        #expect(runs > 1000)
    }
}
