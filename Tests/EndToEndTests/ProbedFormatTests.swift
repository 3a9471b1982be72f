import BookFormat
import Foundation
import Testing
import TestSupport
import TUI

/// What no decoder of ours claims by a magic number goes
/// to FFmpeg's probe, and plays as the `ffmpeg` program decodes it (the same
/// demuxer and codec, converted to s16 by libswresample's defaults, as
/// `ffmpeg -f s16le` converts), sample for sample. The files are made by the
/// formats' own encoders (Monkey's Audio by JMAC, the one Debian packages).
@Suite struct ProbedFormatTests {
    static func source(for format: Fixtures.ProbedFormat) throws -> String {
        // The issue's case: a one-second mono AIFF, once decoded as two minutes of stereo noise.
        try Fixtures.wav(.sweep, seconds: 1, sampleRate: 44100, channels: format == .aiff ? 1 : 2)
    }

    static func rate(of format: Fixtures.ProbedFormat) -> Int { format == .dsf || format == .dff ? 352_800 : 44100 }

    @Test(arguments: Fixtures.ProbedFormat.allCases)
    func wavSinkIsSampleIdenticalToFFmpeg(_ format: Fixtures.ProbedFormat) throws {
        let wav = try Self.source(for: format)
        let channels = try WAVFile.read(wav).channels
        let file = try Fixtures.probed(wav, as: format)
        let rate = Self.rate(of: format)
        let expected = try Fixtures.decodedByFFmpeg(file, sampleRate: rate, channels: channels)
        let output = ScratchFiles.makeDirectory("probed-\(format)") + "/out.wav"
        let result = try InterludeBinary.play([file], output: .wav(output))
        #expect(result.process.succeeded, "\(result.process.summary)")
        let actual = try WAVFile.read(output)
        #expect(actual.sampleRate == rate && actual.channels == channels, "\(actual.sampleRate) Hz, \(actual.channels) ch")
        // About the second the source lasts (lossy codecs add a frame's padding), never minutes of noise.
        #expect(abs(actual.durationSeconds - 1) < 0.1, "\(actual.durationSeconds) s")
        let difference = SignalAnalysis.firstDifference(expected: expected, actual: actual)
        #expect(difference == nil, "\(String(describing: difference))")
    }

    /// Every probed format in one queue through the PulseAudio null sink: each
    /// starts and the queue plays out (later files converted to the first's format).
    @Test func aQueueOfEveryProbedFormatPlaysThroughTheNullSink() throws {
        let files = try Fixtures.ProbedFormat.allCases.map { try Fixtures.probed(Self.source(for: $0), as: $0) }
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let result = try InterludeBinary.play(files, output: .pulse(sink), timeout: 90)
        let capture = try recorder.stop()
        #expect(result.process.succeeded, "\(result.process.summary)")
        #expect(result.events.named("trackStarted").compactMap(\.path) == files)
        #expect(result.events.named("error").isEmpty, "\(result.process.stderrText)")
        let bounds = try #require(SignalAnalysis.signalBounds(capture), "the capture is silent")
        let played = capture.frames(bounds)
        #expect(abs(played.durationSeconds - Double(files.count)) < 0.5, "played \(played.durationSeconds) s of \(files.count)")
    }

    /// Point 4: the tags of each container (APEv2, AIFF's ID3 chunk, DSF's
    /// ID3 tag, ASF's attributes) as `info --json` gives them equal mutagen's reading.
    @Test(arguments: Fixtures.ProbedFormat.allCases.filter(\.tagged))
    func tagsEqualMutagensReading(_ format: Fixtures.ProbedFormat) throws {
        let file = try Fixtures.probed(Self.source(for: format), as: format)
        let oracle = try Fixtures.tagsByMutagen(file, format: format)
        // What makes the test able to fail: the tool wrote the tags mutagen reads back.
        #expect(oracle["title"] == Fixtures.probedTags.title && oracle["artist"] == Fixtures.probedTags.artist
                && oracle["album"] == Fixtures.probedTags.album && oracle["year"] == Fixtures.probedTags.year, "\(oracle)")
        let result = try InterludeBinary.run(["info", file, "--json"])
        #expect(result.succeeded, "\(result.summary)")
        let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        let tags = object?["tags"] as? [String: Any] ?? [:]
        for (name, value) in oracle {
            #expect(WAVID3ChunkTests.shown(name, in: tags) == value, "\(format) \(name): \(String(describing: tags[name])) vs mutagen's \(value)")
        }
        // The browser's and the library's reading, with no decoding library (libavformat
        // reads these tags itself, so `info` alone would not show this reader).
        let read = AudioTags.read(path: file)
        let fields: [String: String?] = ["title": read.title, "artist": read.artist, "album": read.album,
                                         "track": read.track?.description, "year": read.date ?? read.year.map(String.init)]
        for (name, value) in oracle {
            #expect(fields[name] == value, "\(format) \(name) without a decoder: \(String(describing: fields[name])) vs mutagen's \(value)")
        }
    }
}

/// Every size in these containers is checked: files cut anywhere or with
/// bytes overwritten give the tags they still have or none, never a crash.
@Suite struct DamagedProbedTagTests {
    @Test(arguments: Fixtures.ProbedFormat.allCases.filter(\.tagged))
    func damagedFilesGiveTheirTagsOrNoneNeverACrash(_ format: Fixtures.ProbedFormat) throws {
        let file = try Fixtures.probed(ProbedFormatTests.source(for: format), as: format)
        let bytes = try #require(FileManager.default.contents(atPath: file))
        let folder = ScratchFiles.makeDirectory("probed-damaged-\(format)")
        // The tags are at the start (ID3 chunks, ASF's header) or the end (APEv2, DSF's ID3).
        let near = Array(stride(from: 0, to: min(bytes.count, 3000), by: 37))
            + Array(stride(from: max(0, bytes.count - 3000), to: bytes.count, by: 37))
        for cut in near {
            let path = "\(folder)/cut.\(format)"
            try bytes.prefix(cut).write(to: URL(fileURLWithPath: path))
            let tags = AudioTags.read(path: path)
            #expect(tags.title == nil || tags.title == Fixtures.probedTags.title, "cut at \(cut): \(tags)")
        }
        var generator = SeededBytes(seed: 7)
        for round in 0..<80 {
            var damaged = [UInt8](bytes)
            for _ in 0..<8 {
                let span = min(damaged.count, 3000)
                let at = Int(generator.next()) << 8 | Int(generator.next())
                let index = round % 2 == 0 ? at % span : damaged.count - 1 - at % span
                damaged[index] = generator.next()
            }
            let path = "\(folder)/flipped.\(format)"
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            _ = AudioTags.read(path: path)
        }
    }
}

/// Point 4: a WAV's `id3 ` chunk (mutagen's), read by the ID3v2 parser, by
/// `info` and without a decoder alike.
@Suite struct WAVID3ChunkTests {
    /// A field as `info --json` shows it, as text: the tag's date (mutagen's
    /// "year" reading is the date's text) under `date`, with `year` its number.
    static func shown(_ name: String, in tags: [String: Any]) -> String? {
        guard name == "year" else { return tags[name] as? String }
        let date = tags["date"] as? String
        guard let date, let year = tags["year"] as? Int, date.hasPrefix(String(year)) else { return nil }
        return date
    }

    @Test func aWAVsID3ChunkReadsAsMutagenWroteIt() throws {
        let wav = ScratchFiles.makeDirectory("wav-id3") + "/tagged.wav"
        try FileManager.default.copyItem(atPath: try Fixtures.wav(.sweep, seconds: 1), toPath: wav)
        let tags = Fixtures.probedTags
        try ProcessRunner.check("python3", ["-c", """
            import sys
            from mutagen.wave import WAVE
            from mutagen.id3 import TIT2, TPE1, TALB, TRCK, TDRC
            f = WAVE(sys.argv[1]); f.add_tags()
            for frame, text in zip((TIT2, TPE1, TALB, TRCK, TDRC), sys.argv[2:]): f.tags.add(frame(encoding=3, text=[text]))
            f.save()
            """, wav, tags.title, tags.artist, tags.album, tags.track, tags.year],
            environment: ["PYTHONPATH": "\(InterludeBinary.packageRoot)/build/python"])
        let expected = ["title": tags.title, "artist": tags.artist, "album": tags.album, "track": tags.track, "year": tags.year]
        let result = try InterludeBinary.run(["info", wav, "--json"])
        #expect(result.succeeded, "\(result.summary)")
        let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        let shown = object?["tags"] as? [String: Any] ?? [:]
        let read = AudioTags.read(path: wav)
        let fields: [String: String?] = ["title": read.title, "artist": read.artist, "album": read.album,
                                         "track": read.track?.description, "year": read.date ?? read.year.map(String.init)]
        for (name, value) in expected {
            #expect(Self.shown(name, in: shown) == value, "info's \(name): \(String(describing: shown[name]))")
            #expect(fields[name] == value, "\(name) without a decoder: \(String(describing: fields[name]))")
        }
    }
}

/// Point 3's last words: the folder browser and the library list these
/// formats (by their extensions) and show their tags.
@Suite struct ProbedFormatListingTests {
    @Test func theBrowserAndTheLibraryListEveryProbedFormatWithItsTitle() throws {
        let directory = ScratchFiles.makeDirectory("probed-listing")
        let music = directory + "/music"
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        var paths: [Fixtures.ProbedFormat: String] = [:]
        for format in Fixtures.ProbedFormat.allCases {
            let file = try Fixtures.probed(ProbedFormatTests.source(for: format), as: format)
            let path = "\(music)/track-\(format).\((file as NSString).pathExtension)"
            try FileManager.default.copyItem(atPath: file, toPath: path)
            paths[format] = path
        }
        let entries = try #require(FileSystemBrowserSource().entries(in: music))
        #expect(entries.count == paths.count, "\(entries.map(\.name))")
        // The browser reads tags with no decoding library.
        for format in Fixtures.ProbedFormat.allCases where format.tagged {
            let entry = entries.first { $0.path == paths[format] }
            #expect(entry?.title == Fixtures.probedTags.title, "\(format): \(String(describing: entry?.title))")
        }

        let environment = try LibraryHome.environment(directory: directory, music: music)
        let scan = try InterludeBinary.run(["library", "scan"], environment: environment)
        #expect(scan.succeeded, "\(scan.summary)")
        let rows = try LibraryHome.rows(environment: environment)
        #expect(rows.count == paths.count, "\(rows)")
        for (format, path) in paths {
            // The length the container states, as a scan reads it (no whole decode): a video's is
            // its longest stream's (the test pattern's last frame ends at 1.1 s); mpcenc's SV8 files
            // state none that libavformat reads (ffprobe says 0), so none is listed.
            let seconds = (rows[path]?["seconds"] as? NSNumber)?.doubleValue
            switch format {
            case .musepack: #expect(seconds == nil, "\(format): \(rows[path] ?? [:])")
            case .matroskaVideo, .mp4Video: #expect(seconds.map { $0 >= 1 && $0 <= 1.1 + 1e-9 } == true, "\(format): \(rows[path] ?? [:])")
            default: #expect(seconds.map { abs($0 - 1) < 0.05 } == true, "\(format): \(rows[path] ?? [:])")
            }
            if format.tagged {
                #expect(rows[path]?["title"] as? String == Fixtures.probedTags.title, "\(format): \(rows[path] ?? [:])")
            }
        }
    }
}

/// Point 3's refusals, acceptance 4: a file nothing decodes gets one line
/// naming what it is, through the real binary (`info` and a headless `play`).
@Suite struct RefusedFileKindTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let says: String
        var testDescription: String { name }
    }

    /// Files made by the tools that make such files (ffmpeg's image encoders,
    /// Python's zipfile), the empty and text files by hand.
    static func file(_ name: String) throws -> String {
        let folder = ScratchFiles.makeDirectory("refused")
        let path = "\(folder)/\(name)"
        let ffmpeg = ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=64x64", "-frames:v", "1"]
        switch name {
        case "cover.mp3": try ProcessRunner.check("ffmpeg", ffmpeg + ["-f", "mjpeg", path])
        case "scan.flac": try ProcessRunner.check("ffmpeg", ffmpeg + ["-f", "image2", "-c:v", "png", path])
        case "empty.mp3": _ = FileManager.default.createFile(atPath: path, contents: Data())
        case "notes.m4b": try "Chapter list, to be filled in.\n".write(toFile: path, atomically: true, encoding: .utf8)
        case "album.mp3":
            try ProcessRunner.check("python3", ["-c", "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z: z.writestr('a.txt', 'x' * 1000)", path])
        case "booklet.ogg":
            // The smallest PDF a reader opens: a catalog, a page tree, no pages.
            let body = "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
            try body.write(toFile: path, atomically: true, encoding: .utf8)
        case "clip.mp4": return try Fixtures.broken(.videoOnlyMP4)
        case "damaged.ape":
            // Monkey's Audio's magic and a header no decoder can read: its decoder's own words follow.
            var bytes = Array("MAC ".utf8) + [0x96, 0x0F, 0, 0]
            var generator = SeededBytes(seed: 32)
            bytes += (0..<4000).map { _ in generator.next() }
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        case "random.mp3": return try Fixtures.broken(.randomBytes)
        default: Issue.record("no such fixture \(name)")
        }
        return path
    }

    static let cases = [
        Case(name: "cover.mp3", says: "a JPEG image, not an MP3 file"),
        Case(name: "scan.flac", says: "a PNG image, not a playable FLAC file"),
        Case(name: "empty.mp3", says: "an empty file"),
        Case(name: "notes.m4b", says: "a text file, not a playable M4B file"),
        Case(name: "album.mp3", says: "a ZIP archive, not an MP3 file"),
        Case(name: "booklet.ogg", says: "a PDF document, not a playable OGG file"),
        Case(name: "clip.mp4", says: "a video file with no audio stream"),
        Case(name: "damaged.ape", says: "Monkey's Audio, but the decoder failed: "),
        Case(name: "random.mp3", says: "not an MP3 file (no MPEG audio at its start"),
    ]

    @Test(arguments: cases)
    func eachRefusalIsOneLineNamingWhatTheFileIs(_ refusal: Case) throws {
        let path = try Self.file(refusal.name)
        for arguments in [["info", path], ["play", "--output", "null", path]] {
            let result = try InterludeBinary.run(arguments, timeout: 60)
            #expect(result.exitStatus == 1, "\(arguments): \(result.summary)")
            let lines = result.stderrText.split(separator: "\n").filter { $0.contains(path) }
            #expect(lines.count == 1 && lines[0].contains(refusal.says), "\(arguments): \(result.stderrText)")
        }
    }
}

/// Repeatable bytes for a damaged file.
struct SeededBytes {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt8 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return UInt8(truncatingIfNeeded: state >> 33)
    }
}
