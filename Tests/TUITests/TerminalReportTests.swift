import Testing
import TUI

/// `TerminalReport`: what follows an ESC in the same read is a terminal's
/// report, or keys.
@Suite struct TerminalReportTests {
    /// Feeds `text` (what followed the ESC) and gives the last step, with how many scalars it took.
    private func feed(_ text: String) -> (step: TerminalReport.Step, taken: Int, report: TerminalReport) {
        var report = TerminalReport()
        var taken = 0
        for scalar in text.unicodeScalars {
            taken += 1
            let step = report.feed(scalar.value)
            if step != .more { return (step, taken, report) }
        }
        return (.more, taken, report)
    }

    @Test("the answers to the start-up query are reports, whole")
    func answersAreReports() {
        for answer in ["[?62;4c", "[?63;1;2;4;6;9;15;16;22;28c", "[6;20;10t", "_Gi=31;OK\u{1B}\\", "P>|XTerm(390)\u{1B}\\",
                       "]11;rgb:ffff/ffff/ffff\u{07}", "[1;5P", "[>0;95;0c"] {
            let (step, taken, _) = feed(answer)
            #expect(step == .complete([0x1B] + Array(answer.utf8)), "\(answer)")
            #expect(taken == answer.unicodeScalars.count, "\(answer)")
        }
    }

    @Test("a report ends at its final byte: what follows is read on as keys")
    func endsAtTheFinalByte() {
        let (step, taken, _) = feed("[?62;4cq")
        #expect(step == .complete(Array("\u{1B}[?62;4c".utf8)))
        #expect(taken == 7)
    }

    @Test("Alt with a key, and bytes no report has, are keys")
    func keysAreNoReports() {
        for (text, taken) in [("x", 1), ("1", 1), ("ö", 1), ("[ö", 2), ("[?6\u{1B}", 4), ("[\u{07}", 2), ("_G\u{1B}x", 4), ("P\u{01}", 2)] {
            let (step, count, _) = feed(text)
            #expect(step == .notAReport, "\(text.unicodeScalars.map(\.value))")
            #expect(count == taken, "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test("cut by a read's end: more is wanted, once the introducer has come")
    func cutShort() {
        #expect(!TerminalReport().hasIntroducer)
        let (step, _, report) = feed("[?63;1;2;")
        #expect(step == .more)
        #expect(report.hasIntroducer)
        #expect(report.bytes == Array("\u{1B}[?63;1;2;".utf8))
        var carried = report
        var last = TerminalReport.Step.more
        for scalar in "4;22c".unicodeScalars { last = carried.feed(scalar.value) }
        #expect(last == .complete(Array("\u{1B}[?63;1;2;4;22c".utf8)))
    }

    @Test("a report that never ends is cut at the limit and taken whole")
    func limit() {
        var report = TerminalReport()
        #expect(report.feed(0x50) == .more)
        var steps = 1
        var last = TerminalReport.Step.more
        while last == .more, steps < 10_000 {
            last = report.feed(0x41)
            steps += 1
        }
        #expect(steps == TerminalReport.limit - 1)
        guard case .complete(let bytes) = last else {
            Issue.record("\(last)")
            return
        }
        #expect(bytes.count == TerminalReport.limit)
    }
}
