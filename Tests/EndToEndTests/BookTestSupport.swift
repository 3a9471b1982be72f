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
    static func folder(_ name: String, files count: Int, seconds: Double) throws -> BookUnderTest {
        let root = ScratchFiles.makeDirectory("book-\(name)")
        let folder = root + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let source = try Fixtures.mp3(.tone(frequency: 440), seconds: seconds, sampleRate: 44100, channels: 1,
                                      encoding: .cbr(kbps: 64))
        for index in 1...count {
            try FileManager.default.copyItem(atPath: source, toPath: "\(folder)/Part \(index).mp3")
        }
        return BookUnderTest(path: folder, stateHome: root + "/state")
    }

    /// One MP3 of a steady tone with ID3v2.4 chapters written by mutagen:
    /// `(title, start ms)`, each ending where the next starts.
    static func chaptered(_ name: String, seconds: Double, chapters: [(String, Int)]) throws -> BookUnderTest {
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
