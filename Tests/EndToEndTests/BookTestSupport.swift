import Foundation
import Testing
import TestSupport

/// Books for the end-to-end tests: folders of MP3 files and chaptered MP3s
/// (tagged by mutagen, a tool we did not write), each with a state
/// directory of its own so runs never see each other's positions.
struct BookUnderTest {
    /// The folder or the chaptered file.
    let path: String
    /// `XDG_STATE_HOME` for the runs.
    let stateHome: String

    var environment: [String: String] { ["XDG_STATE_HOME": stateHome] }
    var booksDirectory: String { stateHome + "/interlude/books" }

    /// The book's state file (nil before the first save): the one whose
    /// `path` is this book's (other books may share the state directory).
    var stateFile: String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: booksDirectory)) ?? []
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return names.filter { $0.hasSuffix(".json") }.map { booksDirectory + "/" + $0 }.first { file in
            guard let data = FileManager.default.contents(atPath: file),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                // Damaged: it can only be ours when it is the only one.
                return names.filter { $0.hasSuffix(".json") }.count == 1
            }
            return object["path"] as? String == resolved
        }
    }

    /// The state file parsed as JSON (throws when it does not parse).
    func state() throws -> [String: Any] {
        let file = try #require(stateFile, "no state file in \(booksDirectory)")
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(file) is not an object")
    }

    /// The saved position in seconds.
    func savedPosition() throws -> Double {
        let position = try #require(try state()["position"] as? [String: Any])
        return try #require(position["milliseconds"] as? Double) / 1000
    }

    /// Rewrites the saved state's `updated` to `secondsAgo` before now (smart rewind grows with it).
    func backdate(by secondsAgo: Double) throws {
        var object = try state()
        object["updated"] = Int64((Date().timeIntervalSince1970 - secondsAgo) * 1000)
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: stateFile!))
    }

    /// A folder of `count` MP3s of `seconds` each (a 440 Hz tone, mono 64 kbps),
    /// named so that natural order differs from plain order.
    /// `form` other than MP3: the files are AAC M4Bs or FLACs of the same tone.
    static func folder(_ name: String, files count: Int, seconds: Double, form: Form = .mp3) throws -> BookUnderTest {
        let root = ScratchFiles.makeDirectory("book-\(name)")
        let folder = root + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let source: String
        switch form {
        case .mp3:
            source = try Fixtures.mp3(.tone(frequency: 440), seconds: seconds, sampleRate: 44100, channels: 1,
                                      encoding: .cbr(kbps: 64))
        case .m4b:
            source = try Fixtures.encode(Fixtures.wav(.tone(frequency: 440), seconds: seconds, sampleRate: 44100, channels: 1),
                                         as: .aac, fileExtension: "m4b")
        case .flacCue:
            source = try Fixtures.encode(Fixtures.wav(.tone(frequency: 440), seconds: seconds, sampleRate: 44100, channels: 1),
                                         as: .flac16)
        }
        let suffix = (source as NSString).pathExtension
        for index in 1...count {
            try FileManager.default.copyItem(atPath: source, toPath: "\(folder)/Part \(index).\(suffix)")
        }
        return BookUnderTest(path: folder, stateHome: root + "/state")
    }

    /// How a one-file book carries its chapters (the book tests run over
    /// each).
    enum Form: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// An MP3 with ID3v2.4 CHAP/CTOC frames written by mutagen.
        case mp3
        /// AAC in an M4B written by ffmpeg from an ffmetadata file: both chapter
        /// forms, the QuickTime chapter track and Nero's `chpl` atom.
        case m4b
        /// A FLAC with a cue sheet beside it (`NAME.cue`); its times are CD
        /// frames of 1/75 s, so chapter starts that are not whole frames are
        /// rounded: the tests give this form only starts that are.
        case flacCue

        var testDescription: String { rawValue }
    }

    /// One file of a steady tone with chapters `(title, start ms)`, each ending
    /// where the next starts, carried as `form` says.
    static func chaptered(_ name: String, seconds: Double, chapters: [(String, Int)], form: Form = .mp3) throws -> BookUnderTest {
        switch form {
        case .mp3: return try chapteredMP3(name, seconds: seconds, chapters: chapters)
        case .m4b, .flacCue: break
        }
        let root = ScratchFiles.makeDirectory("book-\(name)-\(form)")
        let wav = try Fixtures.wav(.tone(frequency: 440), seconds: seconds, sampleRate: 44100, channels: 1)
        let total = Int(seconds * 1000)
        if form == .m4b {
            func escaped(_ text: String) -> String {
                var result = ""
                for character in text {
                    if "=;#\\\n".contains(character) { result.append("\\") }
                    result.append(character)
                }
                return result
            }
            var metadata = ";FFMETADATA1\ntitle=\(escaped(name))\n"
            for (index, chapter) in chapters.enumerated() {
                let end = index + 1 < chapters.count ? chapters[index + 1].1 : total
                metadata += "\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(chapter.1)\nEND=\(end)\ntitle=\(escaped(chapter.0))\n"
            }
            let metadataPath = root + "/chapters.txt"
            try Data(metadata.utf8).write(to: URL(fileURLWithPath: metadataPath))
            let output = root + "/\(name).m4b"
            try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", wav, "-i", metadataPath, "-map", "0:a",
                                               "-map_metadata", "1", "-map_chapters", "1", "-c:a", "aac", "-b:a", "64k", output])
            return BookUnderTest(path: output, stateHome: root + "/state")
        }
        let flac = try Fixtures.encode(wav, as: .flac16)
        let output = root + "/\(name).flac"
        try FileManager.default.copyItem(atPath: flac, toPath: output)
        var sheet = "PERFORMER \"Interlude Tests\"\nTITLE \"\(name)\"\nFILE \"\(name).flac\" WAVE\n"
        for (index, chapter) in chapters.enumerated() {
            let frames = (chapter.1 * 75 + 500) / 1000
            let time = String(format: "%02d:%02d:%02d", frames / 75 / 60, frames / 75 % 60, frames % 75)
            sheet += "  TRACK \(String(format: "%02d", index + 1)) AUDIO\n    TITLE \"\(chapter.0)\"\n    INDEX 01 \(time)\n"
        }
        try Data(sheet.utf8).write(to: URL(fileURLWithPath: root + "/\(name).cue"))
        return BookUnderTest(path: output, stateHome: root + "/state")
    }

    /// One MP3 of a steady tone with ID3v2.4 chapters written by mutagen:
    /// `(title, start ms)`, each ending where the next starts.
    static func chapteredMP3(_ name: String, seconds: Double, chapters: [(String, Int)]) throws -> BookUnderTest {
        let root = ScratchFiles.makeDirectory("book-\(name)")
        let source = try Fixtures.mp3(.tone(frequency: 440), seconds: seconds, sampleRate: 44100, channels: 1,
                                      encoding: .cbr(kbps: 64))
        let output = root + "/\(name).mp3"
        let total = Int(seconds * 1000)
        let entries: [[String: Any]] = chapters.enumerated().map { index, chapter in
            ["id": "ch\(index)", "title": chapter.0, "start": chapter.1,
             "end": index + 1 < chapters.count ? chapters[index + 1].1 : total]
        }
        let spec: [[String: Any]] = [["source": source, "output": output, "version": 4, "encoding": 3, "toc": true,
                                      "chapters": entries]]
        let specPath = root + "/spec.json"
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: specPath))
        let package = InterludeBinary.packageRoot
        try ProcessRunner.check("python3", ["\(package)/Tests/Fixtures/write_chapters.py", specPath],
                                environment: ["PYTHONPATH": "\(package)/build/python"])
        return BookUnderTest(path: output, stateHome: root + "/state")
    }

    /// `interlude play BOOK --events json extra...` to completion on a file sink.
    func play(output: InterludeBinary.Output = .null, _ extra: [String] = []) throws -> InterludeBinary.PlayResult {
        try InterludeBinary.play([path], output: output, extraArguments: extra, environment: environment, timeout: 120)
    }

    /// `interlude bookmark ARGS` for this book.
    func bookmark(_ subcommand: String, _ arguments: [String] = []) throws -> ProcessResult {
        try InterludeBinary.run(["bookmark", subcommand, path] + arguments, environment: environment, timeout: 60)
    }
}

extension InterludeEvent {
    /// A numeric field in seconds, e.g. `seconds("position")`.
    func seconds(_ key: String) -> Double? { number(key) }
}
