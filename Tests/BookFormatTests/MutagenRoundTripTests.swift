import Foundation
import Testing
@testable import BookFormat

/// Acceptance 1: chapters written by a tool we did not write (Python's
/// mutagen) into real MP3 files are read back with exact titles and
/// millisecond times, for ID3v2.3 and 2.4 and every text encoding each
/// allows. `make test` installs mutagen into build/python first
/// (scripts/install-python-tools.sh); without it these tests fail and say so.
struct MutagenRoundTripTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let version: Int
        let encoding: ID3v2TextEncoding
        let tableOfContents: Bool
        /// The CTOC lists the chapters out of time order, so only a reader
        /// that follows the CTOC gets the expected order.
        var tocOutOfTimeOrder = false

        var testDescription: String {
            "ID3v2.\(version) \(encoding)" + (tableOfContents ? " with CTOC" : " without CTOC")
                + (tocOutOfTimeOrder ? " out of time order" : "")
        }
        var fileName: String {
            "v\(version)-enc\(encoding.rawValue)-\(tableOfContents ? "toc" : "notoc")\(tocOutOfTimeOrder ? "-reordered" : "").mp3"
        }
        /// Indices into `chapters` in the order a reader must report them.
        var playingOrder: [Int] { tocOutOfTimeOrder ? [2, 0, 1] : [0, 1, 2] }

        /// Non-ASCII in every title; CJK and a character outside the BMP
        /// (a UTF-16 surrogate pair) where the encoding can carry them.
        var chapters: [(id: String, title: String, start: Int, end: Int)] {
            let unicode = encoding != .latin1
            return [
                ("ch0", unicode ? "序章 Prologue é ü" : "Prologue: café", 0, 61234),
                ("ch1", unicode ? "第二章 — Über 🎧" : "Kapitel zwei: Über", 61234, 3_723_456),
                ("ch2", unicode ? "Глава три" : "Trois: Noël", 3_723_456, 3_723_999),
            ]
        }
    }

    static let cases: [Case] = [
        Case(version: 3, encoding: .latin1, tableOfContents: true),
        Case(version: 3, encoding: .utf16WithBOM, tableOfContents: true),
        Case(version: 4, encoding: .latin1, tableOfContents: true),
        Case(version: 4, encoding: .utf16WithBOM, tableOfContents: true),
        Case(version: 4, encoding: .utf16BigEndian, tableOfContents: true),
        Case(version: 4, encoding: .utf8, tableOfContents: true),
        Case(version: 4, encoding: .utf8, tableOfContents: false),
        Case(version: 3, encoding: .utf16WithBOM, tableOfContents: false),
        Case(version: 3, encoding: .latin1, tableOfContents: true, tocOutOfTimeOrder: true),
        Case(version: 4, encoding: .utf16BigEndian, tableOfContents: true, tocOutOfTimeOrder: true),
    ]

    static let directory = ExternalTool.packageRoot + "/build/fixtures/chapters"

    @Test(arguments: cases)
    func chaptersWrittenByMutagenReadBackExactly(fixture: Case) throws {
        let path = try Self.write(fixture)
        let tag = try ID3v2Tag(bytes: try TagFileReader.tagBytes(atPath: path))
        // mutagen must really have written what was asked, or a pass would
        // prove nothing about that version or encoding.
        #expect(tag.header.majorVersion == UInt8(fixture.version))
        let chapterFrames = try tag.frames(withID: "CHAP").map { frame throws(ID3v2Error) in
            try ChapterFrame(body: frame.body, majorVersion: tag.header.majorVersion)
        }
        // The script adds the frames in reverse and mutagen orders them its
        // own way; either way the file's order is not the playing order, so
        // the order we report comes from the CTOC or the start times.
        let fileOrder = chapterFrames.map(\.elementID)
        #expect(fileOrder.sorted() == ["ch0", "ch1", "ch2"])
        #expect(fileOrder != ["ch0", "ch1", "ch2"], "mutagen wrote the frames in playing order")
        for frame in chapterFrames {
            let title = frame.subframes.first { $0.id == "TIT2" }
            #expect(title?.body.first == fixture.encoding.rawValue, "TIT2 of \(frame.elementID) in the asked encoding")
        }
        #expect(tag.frames(withID: "CTOC").count == (fixture.tableOfContents ? 1 : 0))

        let list = try TagFileReader.chapters(atPath: path)
        #expect(list.damage == nil)
        let chapters = fixture.chapters
        #expect(list.chapters == fixture.playingOrder.map {
            Chapter(title: chapters[$0].title, startMilliseconds: chapters[$0].start, endMilliseconds: chapters[$0].end)
        })
    }

    /// A one-second tone made with sox and lame, then mutagen's chapters.
    static func write(_ fixture: Case) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let source = try tone(named: fixture.fileName + ".source")
        let output = directory + "/" + fixture.fileName
        let spec: [[String: Any]] = [[
            "source": source, "output": output, "version": fixture.version,
            "encoding": Int(fixture.encoding.rawValue), "toc": fixture.tableOfContents,
            "chapters": fixture.chapters.map { ["id": $0.id, "title": $0.title, "start": $0.start, "end": $0.end] },
            "toc_order": fixture.playingOrder.map { fixture.chapters[$0].id },
        ]]
        let specPath = output + ".json"
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: specPath))
        try ExternalTool.run(
            ["python3", ExternalTool.packageRoot + "/Tests/Fixtures/write_chapters.py", specPath],
            environment: ["PYTHONPATH": ExternalTool.packageRoot + "/build/python"])
        return output
    }

    /// Each test makes its own tone, so parallel tests never share a file
    /// that another is still writing.
    static func tone(named name: String) throws -> String {
        let wav = directory + "/" + name + ".wav", mp3 = directory + "/" + name + ".mp3"
        try ExternalTool.run(["sox", "-q", "-n", "-r", "44100", "-c", "1", "-b", "16", wav, "synth", "1", "sine", "440"])
        try ExternalTool.run(["lame", "--quiet", "-b", "64", wav, mp3])
        return mp3
    }
}
