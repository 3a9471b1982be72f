import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The CPU a 1000x1000 JPEG cover takes to draw
/// (`interlude bench cover`: found, decoded, drawn in block symbols on 58x20
/// cells), and the full-screen player's peak RSS (`VmHWM`) playing an MP3
/// with that cover shown in the now-playing pane beside the same MP3
/// without a picture, each in a 120x40 tmux pane on the private null sink,
/// read 5 s after the pane was shown (and the picture drawn).
extension Bench {
    func coverArtCost(_ sink: NullSink) throws {
        let picture = try CoverArtFixtures.picture(size: 1000, format: "jpg")
        let covered = try CoverArtFixtures.tagged(.id3, picture: picture, seconds: 30)
        let plain = try CoverArtFixtures.besideImage(named: "notes.txt", bytes: Data("no picture".utf8), seconds: 30)
        progress("cover art: draw time of a 1000x1000 JPEG, and peak RSS with and without it shown (about 30 s)")
        let drawn = try ProcessRunner.check(interlude, ["bench", "cover", covered], timeout: 120).stdoutText
        // "12.3 ms CPU first draw (libraries loaded); 8.1 ms CPU median draw of 20"
        let numbers = drawn.split(separator: " ").compactMap { Double($0) }
        guard numbers.count >= 2 else { throw ProcessError.notReady("interlude bench cover said: \(drawn)") }

        func peak(_ file: String, shown: @escaping (String) -> Bool) throws -> Double {
            let player = try TmuxPlayer(sink: sink, command: [interlude, file, "--device", "pulse", "--foreground"],
                                        ready: { $0.contains("▶ playing") })
            try player.tmux(["send-keys", "3"])
            try player.wait(shown)
            usleep(5_000_000)
            let pid = try player.tmux(["display-message", "-p", "#{pane_pid}"]).stdoutText
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return peakRSS(pid: Int32(pid) ?? 0)
        }
        // The picture's cells are block elements (U+2580-U+259F); the plain file's pane has none.
        let withPicture = try peak(covered) { screen in screen.unicodeScalars.contains { (0x2580...0x259F).contains($0.value) } }
        let withoutPicture = try peak(plain) { $0.contains("Now playing") }
        let cost = withPicture - withoutPicture
        report.rows.append(ResultRow(
            measure: "cover art: 1000x1000 JPEG drawn (58x20 cells, symbols), CPU ms",
            subject: formatted(numbers[1], 1), peer: "\(formatted(numbers[0], 1)) first draw, libraries loaded",
            ratio: nil, target: "<= 30 ms", passed: numbers[1] <= 30 && numbers[0] <= 30))
        report.rows.append(ResultRow(
            measure: "cover art: full-screen peak RSS with the cover shown, MB",
            subject: formatted(withPicture, 1), peer: "\(formatted(withoutPicture, 1)) without a picture",
            ratio: withPicture / max(withoutPicture, 0.01), target: "<= +5 MB", passed: cost <= 5))
        report.notes.append("cover art: draw time from `interlude bench cover` (process CPU around the thread's work); "
                            + "RSS is VmHWM 5 s after the now-playing pane showed, 120x40 tmux, 256 colours")
    }
}
