import Foundation
import Testing
import TestSupport

/// The formats beyond MP3 through FFmpeg's libraries. The WAV sink
/// against the `ffmpeg` program's decode (`ffmpeg -i FILE -f s16le`, same rate
/// and channels), sample for sample: the decoder uses the same demuxer and
/// codec, and converts to s16 with libswresample's defaults (no dither), as
/// `ffmpeg` does, so no tolerance is needed, 24-bit FLAC included (both
/// truncate s32 to s16 the same way).
@Suite struct FormatDecodingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let codec: Fixtures.Codec
        let rate: Int
        let channels: Int
        var testDescription: String { "\(codec) \(rate) Hz \(channels) ch" }
    }

    static let cases = [
        Case(codec: .aac, rate: 44100, channels: 2),
        Case(codec: .aac, rate: 22050, channels: 1),
        Case(codec: .alac, rate: 44100, channels: 2),
        Case(codec: .flac16, rate: 44100, channels: 2),
        Case(codec: .flac16, rate: 48000, channels: 1),
        Case(codec: .flac24, rate: 96000, channels: 2),
        Case(codec: .vorbis, rate: 44100, channels: 2),
        Case(codec: .opus, rate: 44100, channels: 2),
        Case(codec: .opus, rate: 16000, channels: 1),
    ]

    @Test(arguments: cases)
    func wavSinkIsSampleIdenticalToFFmpeg(_ fixture: Case) throws {
        let wav = try Fixtures.wav(.sweep, seconds: 3, sampleRate: fixture.rate, channels: fixture.channels)
        let file = try Fixtures.encode(wav, as: fixture.codec)
        // Opus decodes at 48 kHz whatever the input's rate was.
        let rate = fixture.codec == .opus ? 48000 : fixture.rate
        let expected = try Fixtures.decodedByFFmpeg(file, sampleRate: rate, channels: fixture.channels)
        let output = ScratchFiles.makeDirectory("formats") + "/out.wav"
        let result = try InterludeBinary.play([file], output: .wav(output))
        #expect(result.process.succeeded, "\(result.process.summary)")
        let actual = try WAVFile.read(output)
        #expect(actual.sampleRate == rate)
        #expect(actual.channels == fixture.channels)
        #expect(actual.frameCount > rate * 29 / 10)
        let difference = SignalAnalysis.firstDifference(expected: expected, actual: actual)
        #expect(difference == nil, "\(String(describing: difference))")
    }

    /// Acceptance 2: a tone cut in two and encoded file by file plays back as
    /// the two reference decodes end to end: the MP4 edit list's priming and
    /// Opus's pre-skip and end granule are trimmed, nothing is added at the join.
    @Test(arguments: [Fixtures.Codec.aac, .opus, .vorbis, .flac16])
    func twoFilesCutFromOneToneJoinAsTheirDecodes(_ codec: Fixtures.Codec) throws {
        let (firstWAV, secondWAV) = try Fixtures.cutWAVs(firstSeconds: 2.3, secondSeconds: 1.7)
        let first = try Fixtures.encode(firstWAV, as: codec)
        let second = try Fixtures.encode(secondWAV, as: codec)
        let rate = codec == .opus ? 48000 : 44100
        let expected = try Fixtures.decodedByFFmpeg(first, sampleRate: rate, channels: 2)
            .appending(Fixtures.decodedByFFmpeg(second, sampleRate: rate, channels: 2))
        let output = ScratchFiles.makeDirectory("gapless-\(codec)") + "/out.wav"
        let result = try InterludeBinary.play([first, second], output: .wav(output))
        #expect(result.process.succeeded, "\(result.process.summary)")
        let actual = try WAVFile.read(output)
        let difference = SignalAnalysis.firstDifference(expected: expected, actual: actual)
        #expect(difference == nil, "\(String(describing: difference))")
        // Opus and Vorbis (and FLAC, lossless) declare their exact length: 4 s in all.
        if codec != .aac {
            #expect(actual.frameCount == rate * 4, "\(actual.frameCount) frames")
        }
        let names = result.events.events.map(\.event)
        #expect(names == ["trackStarted", "trackEnded", "trackStarted", "trackEnded", "finished", "summary"])
    }

    /// An M4A whose only gapless information is iTunes' `iTunSMPB` comment (no
    /// edit list: `-use_editlist 0`, the comment written by mutagen).
    /// libavformat skips its priming but keeps the last frame's padding, so
    /// `ffmpeg` alone decodes each half 820 to 1,000-odd frames long; the
    /// player stops each at the count the comment declares, and the halves join
    /// as the tone was cut.
    @Test func iTunSMPBAloneTrimsBothEnds() throws {
        let (firstWAV, secondWAV) = try Fixtures.cutWAVs(firstSeconds: 2.3, secondSeconds: 1.7)
        let root = ScratchFiles.makeDirectory("itunsmpb")
        var parts: [String] = []
        var expected: PCMAudio?
        for (index, wav) in [firstWAV, secondWAV].enumerated() {
            let plain = try Fixtures.encode(wav, as: .aac, extraArguments: ["-use_editlist", "0"])
            let samples = try WAVFile.read(wav).frameCount
            // ffmpeg's AAC encoder primes with 1,024 frames and pads to whole frames of 1,024.
            let remainder = (1024 - (samples + 1024) % 1024) % 1024
            let path = root + "/part\(index).m4a"
            try FileManager.default.copyItem(atPath: plain, toPath: path)
            let smpb = String(format: " 00000000 00000400 %08X %016X", remainder, samples)
                + String(repeating: " 00000000", count: 8)
            try ProcessRunner.check("python3", ["-c", """
                import sys
                from mutagen.mp4 import MP4, MP4FreeForm
                f = MP4(sys.argv[1]); f["----:com.apple.iTunes:iTunSMPB"] = [MP4FreeForm(sys.argv[2].encode())]; f.save()
                """, path, smpb], environment: ["PYTHONPATH": "\(InterludeBinary.packageRoot)/build/python"])
            parts.append(path)
            let decoded = try Fixtures.decodedByFFmpeg(path, sampleRate: 44100, channels: 2)
            // What makes the test able to fail: ffmpeg's own decode runs past the declared end.
            #expect(decoded.frameCount > samples, "ffmpeg decodes \(decoded.frameCount) frames of \(samples)")
            let part = decoded.frames(0..<min(samples, decoded.frameCount))
            expected = expected.map { $0.appending(part) } ?? part
        }
        let output = root + "/out.wav"
        let result = try InterludeBinary.play(parts, output: .wav(output))
        #expect(result.process.succeeded, "\(result.process.summary)")
        let actual = try WAVFile.read(output)
        #expect(actual.frameCount == 44100 * 4, "\(actual.frameCount) frames")
        let difference = SignalAnalysis.firstDifference(expected: try #require(expected), actual: actual)
        #expect(difference == nil, "\(String(describing: difference))")
        let info = try InterludeBinary.run(["info", parts[0]], timeout: 60)
        #expect(info.stdoutText.contains("101430 frames"), "\(info.stdoutText)")
    }

    /// A mono file in a stereo queue is copied to both sides, as libmpg123 does
    /// (libswresample's own default would mix it in at -3 dB): after a stereo
    /// MP3, a mono FLAC at the same rate plays as its samples, each twice.
    @Test func aMonoFileInAStereoQueueKeepsItsLevel() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let flac = try Fixtures.encode(Fixtures.wav(.music, seconds: 1, sampleRate: 44100, channels: 1), as: .flac16)
        let first = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let mono = try Fixtures.decodedByFFmpeg(flac, sampleRate: 44100, channels: 1)
        let output = ScratchFiles.makeDirectory("mono-in-stereo") + "/out.wav"
        let result = try InterludeBinary.play([mp3, flac], output: .wav(output))
        #expect(result.process.succeeded, "\(result.process.summary)")
        let doubled = PCMAudio(sampleRate: 44100, channels: 2, samples: mono.samples.flatMap { [$0, $0] })
        let difference = SignalAnalysis.firstDifference(expected: first.appending(doubled), actual: try WAVFile.read(output))
        #expect(difference == nil, "\(String(describing: difference))")
    }

    /// Point 7: the content decides, not the name. libmpg123 would play an Ogg
    /// file named `.mp3` as 0.14 s of noise from false frame syncs.
    @Test func anOggFileNamedMP3PlaysAsOgg() throws {
        let wav = try Fixtures.wav(.sweep, seconds: 2, sampleRate: 44100, channels: 2)
        let ogg = try Fixtures.copy(Fixtures.encode(wav, as: .vorbis), as: "really-vorbis.mp3")
        let expected = try Fixtures.decodedByFFmpeg(ogg, sampleRate: 44100, channels: 2)
        let output = ScratchFiles.makeDirectory("ogg-as-mp3") + "/out.wav"
        let result = try InterludeBinary.play([ogg], output: .wav(output))
        #expect(result.process.succeeded, "\(result.process.summary)")
        let difference = SignalAnalysis.firstDifference(expected: expected, actual: try WAVFile.read(output))
        #expect(difference == nil, "\(String(describing: difference))")
    }

    /// A queue that starts with an MP3 at 44.1 kHz stereo and goes on with FLAC
    /// at 48 kHz mono and Opus: the later files are converted by libswresample
    /// to the first file's format, each at its own length.
    @Test func aMixedQueuePlaysInTheFirstFilesFormat() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 2, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let flac = try Fixtures.encode(Fixtures.wav(.music, seconds: 2, sampleRate: 48000, channels: 1), as: .flac16)
        let opus = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 1, sampleRate: 48000, channels: 2), as: .opus)
        let output = ScratchFiles.makeDirectory("mixed-formats") + "/out.wav"
        let result = try InterludeBinary.play([mp3, flac, opus], output: .wav(output))
        #expect(result.process.succeeded, "\(result.process.summary)")
        #expect(result.events.named("trackStarted").map(\.path) == [mp3, flac, opus])
        let actual = try WAVFile.read(output)
        #expect(actual.sampleRate == 44100 && actual.channels == 2)
        #expect(abs(actual.durationSeconds - 5.0) < 0.05, "\(actual.durationSeconds) s")
        // The FLAC part carries the FLAC's content, converted.
        let reference = try Fixtures.decodedByFFmpeg(flac, sampleRate: 44100, channels: 2)
        let middle = actual.frames(88200..<(88200 + 88200))
        let alignment = SignalAnalysis.align(reference: reference, signal: middle)
        #expect(alignment.correlation > 0.95, "\(alignment)")
        #expect(abs(alignment.lag) < 441, "\(alignment)")
    }
}

/// Point 7 and acceptance 9: bad files in the new formats get one line each,
/// naming the file and what is wrong, and the rest of the queue plays.
@Suite struct FormatBadInputTests {
    @Test func eachBadFileGetsOneLineAndTheRestOfTheQueuePlays() throws {
        let good = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let reasons: [(Fixtures.BrokenFormat, String)] = [
            (.truncatedM4B, "moov atom) is missing"), (.videoOnlyMP4, "a video file with no audio stream (MP4)"),
            (.damagedFLAC, "damaged audio at"), (.textM4B, "not a playable M4B file"),
        ]
        let bad = try reasons.map { try Fixtures.broken($0.0) }
        let output = ScratchFiles.makeDirectory("bad-formats") + "/out.wav"
        let result = try InterludeBinary.play(bad + [good], output: .wav(output), timeout: 60)
        #expect(result.process.exitStatus == 0, "\(result.process.summary)")
        let lines = result.process.stderrText.split(separator: "\n").map(String.init)
        for ((_, reason), path) in zip(reasons, bad) {
            let mentions = lines.filter { $0.contains(path) }
            #expect(mentions.count == 1 && mentions[0].contains(reason), "\(path): \(mentions)")
        }
        // The damaged FLAC plays around its bad frame; the others are skipped.
        let damaged = try Fixtures.broken(.damagedFLAC)
        #expect(result.events.named("trackStarted").compactMap(\.path) == [damaged, good])
        // The skipped frame's time is kept (as silence): 3 s of FLAC, then 1 s of MP3.
        let actual = try WAVFile.read(output)
        #expect(abs(actual.durationSeconds - 4.0) < 0.01, "\(actual.durationSeconds) s")
        // Before the damage, the FLAC is ffmpeg's decode sample for sample.
        let reference = try Fixtures.decodedByFFmpeg(try Fixtures.encode(Fixtures.wav(.sweep, seconds: 3), as: .flac16),
                                                     sampleRate: 44100, channels: 2)
        let head = 44100
        #expect(SignalAnalysis.firstDifference(expected: reference.frames(0..<head), actual: actual.frames(0..<head)) == nil)
    }
}

/// Acceptance 7: FFmpeg's libraries are loaded with dlopen when the first file
/// that is not MPEG audio is opened, so playing an MP3 maps none of them.
@Suite(.serialized) struct FFmpegFootprintTests {
    /// `/proc/PID/ENTRY` (maps, smaps) of the player once `file` plays through the null sink.
    static func procEntry(_ entry: String, playing file: String) throws -> String {
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let process = try InterludeBinary.start(["play", file, "--device", "pulse", "--events", "json"],
                                                environment: sink.environment)
        defer { _ = process.stop() }
        let started = process.waitForEvent(named: "trackStarted", timeout: 30)
        try #require(started != nil, "no trackStarted: \(process.eventsSoFar().events)")
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/\(process.pid)/\(entry)"))
        defer { try? handle.close() }
        return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }

    static func librariesMapped(playing file: String,
                                matching names: [String] = ["libavformat", "libavcodec", "libavutil", "libswresample"]) throws -> [Substring] {
        let maps = try procEntry("maps", playing: file)
        #expect(maps.contains("libasound"))
        return maps.split(separator: "\n").filter { line in names.contains { line.contains($0) } }
    }

    @Test func playingAnMP3MapsNoFFmpegLibrary() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 2, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let mapped = try Self.librariesMapped(playing: mp3)
        #expect(mapped.isEmpty, "MP3 playback maps FFmpeg: \(mapped)")
    }

    /// An MP3 behind an ID3v2 tag (mutagen's) and 1,000 zero bytes
    /// of padding past the size the tag declares, as some taggers leave: it is
    /// MPEG audio from its start (`MPEGAudioStart`), plays as `mpg123`
    /// decodes it, and the check that says so loads no FFmpeg library.
    @Test func aTaggedMP3WithPaddingPlaysAndMapsNoFFmpegLibrary() throws {
        let plain = try Fixtures.mp3(.sweep, seconds: 2, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let folder = ScratchFiles.makeDirectory("padded-mp3")
        let tagged = folder + "/tagged.mp3"
        try FileManager.default.copyItem(atPath: plain, toPath: tagged)
        try ProcessRunner.check("python3", ["-c", """
            import sys
            from mutagen.id3 import ID3, TIT2
            t = ID3(); t.add(TIT2(encoding=3, text=["Padded"])); t.save(sys.argv[1], padding=lambda info: 0)
            """, tagged], environment: ["PYTHONPATH": "\(InterludeBinary.packageRoot)/build/python"])
        let bytes = try #require(FileManager.default.contents(atPath: tagged))
        #expect(bytes.prefix(3) == Data("ID3".utf8))
        let tagLength = 10 + bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7f) }
        let padded = folder + "/padded.mp3"
        try (bytes.prefix(tagLength) + Data(count: 1000) + bytes.dropFirst(tagLength)).write(to: URL(fileURLWithPath: padded))
        let output = folder + "/out.wav"
        let result = try InterludeBinary.play([padded], output: .wav(output))
        #expect(result.process.succeeded, "\(result.process.summary)")
        let expected = try WAVFile.read(Fixtures.decodedByMPG123(plain))
        let difference = SignalAnalysis.firstDifference(expected: expected, actual: try WAVFile.read(output))
        #expect(difference == nil, "\(String(describing: difference))")
        let mapped = try Self.librariesMapped(playing: padded)
        #expect(mapped.isEmpty, "MP3 playback maps FFmpeg: \(mapped)")
    }

    /// The same reading of the maps finds them when an M4A plays.
    @Test func playingAnM4AMapsThem() throws {
        let m4a = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 2, sampleRate: 44100, channels: 2), as: .aac)
        let mapped = try Self.librariesMapped(playing: m4a)
        #expect(mapped.contains { $0.contains("libavcodec") }, "\(mapped)")
    }

    /// A FLAC plays through libFLAC (a fraction of FFmpeg's 25 MB resident).
    /// (Whether an MP3 maps libFLAC cannot be seen here: ALSA's pulse plugin
    /// maps it already, through libpulse's libsndfile.)
    @Test func playingAFLACMapsNoFFmpegLibrary() throws {
        let flac = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 2, sampleRate: 44100, channels: 2), as: .flac16)
        let mapped = try Self.librariesMapped(playing: flac)
        #expect(mapped.isEmpty, "FLAC playback maps FFmpeg: \(mapped)")
        let flacMapped = try Self.librariesMapped(playing: flac, matching: ["libFLAC"])
        #expect(!flacMapped.isEmpty, "FLAC playback maps no libFLAC")
    }
}

/// Acceptance 4: chapters in every form `info --json` shows them: M4B files
/// written by ffmpeg from an ffmetadata file with both chapter forms and with
/// the QuickTime text track only (`-movflags disable_chpl`), an Opus file with
/// `CHAPTERnn` comments, a FLAC with a cue sheet beside it. Every title exact
/// (UTF-8 with CJK), every start within 1 ms.
@Suite struct FormatChapterTests {
    static let chapters: [(String, Int)] = [("序章 Opening", 0), ("第一章 — Ålesund", 1_240), ("Épilogue; the = end", 2_600)]

    static func info(_ path: String) throws -> [String: Any] {
        let result = try InterludeBinary.run(["info", path, "--json"], timeout: 60)
        #expect(result.exitStatus == 0, "\(result.summary)")
        let object = try JSONSerialization.jsonObject(with: result.stdout)
        return try #require(object as? [String: Any], "\(result.stdoutText)")
    }

    static func expectChapters(_ path: String, _ expected: [(String, Int)] = chapters) throws {
        let json = try info(path)
        let chapters = try #require(json["chapters"] as? [[String: Any]], "\(json)")
        #expect(chapters.map { $0["title"] as? String } == expected.map(\.0), "\(chapters)")
        for (chapter, (title, start)) in zip(chapters, expected) {
            let seconds = try #require(chapter["start"] as? Double)
            #expect(abs(seconds * 1000 - Double(start)) <= 1, "\(title): starts at \(seconds) s, not \(start) ms")
        }
    }

    static func m4b(nero: Bool) throws -> String {
        let root = ScratchFiles.makeDirectory("chapters-m4b-\(nero)")
        let wav = try Fixtures.wav(.sweep, seconds: 3, sampleRate: 44100, channels: 2)
        func escaped(_ text: String) -> String {
            text.reduce(into: "") { result, character in
                if "=;#\\\n".contains(character) { result.append("\\") }
                result.append(character)
            }
        }
        var metadata = ";FFMETADATA1\ntitle=Chapters\n"
        for (index, chapter) in chapters.enumerated() {
            let end = index + 1 < chapters.count ? chapters[index + 1].1 : 3000
            metadata += "\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(chapter.1)\nEND=\(end)\ntitle=\(escaped(chapter.0))\n"
        }
        try Data(metadata.utf8).write(to: URL(fileURLWithPath: root + "/meta.txt"))
        let output = root + "/book.m4b"
        try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", wav, "-i", root + "/meta.txt", "-map", "0:a",
                                           "-map_metadata", "1", "-map_chapters", "1", "-c:a", "aac", "-b:a", "96k"]
                                + (nero ? [] : ["-movflags", "disable_chpl"]) + [output])
        // The file has the Nero atom exactly when asked: the text track alone is read otherwise.
        let bytes = try #require(FileManager.default.contents(atPath: output))
        #expect((bytes.range(of: Data("chpl".utf8)) != nil) == nero)
        return output
    }

    @Test(arguments: [true, false])
    func m4bChaptersInBothFormsAndTextTrackOnly(_ nero: Bool) throws {
        try Self.expectChapters(Self.m4b(nero: nero))
    }

    @Test func opusChapterComments() throws {
        let wav = try Fixtures.wav(.sweep, seconds: 3, sampleRate: 48000, channels: 2)
        var comments: [String] = []
        for (index, chapter) in Self.chapters.enumerated() {
            let number = String(format: "%02d", index + 1)
            let start = String(format: "00:00:%02d.%03d", chapter.1 / 1000, chapter.1 % 1000)
            comments += ["--comment", "CHAPTER\(number)=\(start)", "--comment", "CHAPTER\(number)NAME=\(chapter.0)"]
        }
        let opus = try Fixtures.encode(wav, as: .opus, extraArguments: comments)
        try Self.expectChapters(opus)
    }

    /// libFLAC's path reads what libavformat reads in a FLAC: `CHAPTERnn`
    /// comments, and the CUESHEET block `flac --cuesheet` embeds (its tracks
    /// untitled, as libavformat gives them: `info` names them).
    @Test func flacChapterCommentsAndEmbeddedCueSheet() throws {
        let wav = try Fixtures.wav(.sweep, seconds: 3, sampleRate: 44100, channels: 2)
        var comments: [String] = []
        for (index, chapter) in Self.chapters.enumerated() {
            let number = String(format: "%02d", index + 1)
            let start = String(format: "00:00:%02d.%03d", chapter.1 / 1000, chapter.1 % 1000)
            comments += ["-T", "CHAPTER\(number)=\(start)", "-T", "CHAPTER\(number)NAME=\(chapter.0)"]
        }
        try Self.expectChapters(try Fixtures.encode(wav, as: .flac16, extraArguments: comments))

        // 1.24 s and 2.6 s are whole CD frames (93 and 195 of 1/75 s).
        let sheet = ScratchFiles.makeDirectory("embedded-cue") + "/sheet.cue"
        try Data("FILE \"x.wav\" WAVE\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n  TRACK 02 AUDIO\n    INDEX 01 00:01:18\n  TRACK 03 AUDIO\n    INDEX 01 00:02:45\n".utf8)
            .write(to: URL(fileURLWithPath: sheet))
        let embedded = try Fixtures.encode(wav, as: .flac16, extraArguments: ["--cuesheet=\(sheet)"])
        try Self.expectChapters(embedded, Self.chapters.enumerated().map { ("Chapter \($0.offset + 1)", $0.element.1) })
    }

    @Test func flacWithACueSheet() throws {
        let book = try BookUnderTest.chaptered("Cue", seconds: 3, chapters: Self.chapters, form: .flacCue)
        try Self.expectChapters(book.path)
    }

    /// Point 7: a cue sheet that names a missing file, or has a bad time: one
    /// line naming the sheet; the rest plays (the FLAC as one chapter).
    @Test func badCueSheetsAreNamedAndTheRestPlays() throws {
        let root = ScratchFiles.makeDirectory("bad-cue")
        let missing = root + "/missing.cue"
        try Data("FILE \"gone.flac\" WAVE\nTRACK 01 AUDIO\nINDEX 01 00:00:00\n".utf8).write(to: URL(fileURLWithPath: missing))
        let good = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let result = try InterludeBinary.play([missing, good], output: .null, timeout: 60)
        #expect(result.process.exitStatus == 0, "\(result.process.summary)")
        let lines = result.process.stderrText.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(missing) && lines[0].contains("gone.flac"), "\(lines)")
        #expect(result.events.named("trackStarted").compactMap(\.path) == [good])

        let flac = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 2, sampleRate: 44100, channels: 2), as: .flac16)
        let book = root + "/book.flac"
        try FileManager.default.copyItem(atPath: flac, toPath: book)
        try Data("FILE \"book.flac\" WAVE\nTRACK 01 AUDIO\nINDEX 01 00:00:00\nTRACK 02 AUDIO\nINDEX 01 00:01:80\n".utf8)
            .write(to: URL(fileURLWithPath: root + "/book.cue"))
        let played = try InterludeBinary.play([book], output: .null, extraArguments: ["--book"],
                                              environment: ["XDG_STATE_HOME": root + "/state"], timeout: 60)
        #expect(played.process.exitStatus == 0, "\(played.process.summary)")
        let problems = played.process.stderrText.split(separator: "\n")
        #expect(problems.count == 1 && problems[0].contains(root + "/book.cue") && problems[0].contains("bad time '00:01:80'"),
                "\(problems)")
        #expect(played.events.named("trackStarted").count == 1)
    }
}

/// Acceptance 3: a queue of MP3 at 44.1 kHz, FLAC at 48 kHz, Opus and AAC
/// plays through the PulseAudio null sink (captured with parec) without digital
/// silence over 5 ms anywhere inside the signal, the joins included: the later
/// files are converted to the first one's format and the device stays open.
@Suite(.serialized) struct FormatQueueCaptureTests {
    @Test func aMixedQueuePlaysWithoutAGapAtTheJoins() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 1.5, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let flac = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 1.5, sampleRate: 48000, channels: 2), as: .flac16)
        let opus = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 1.5, sampleRate: 48000, channels: 1), as: .opus)
        let aac = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 1.5, sampleRate: 44100, channels: 2), as: .aac)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let result = try InterludeBinary.play([mp3, flac, opus, aac], output: .pulse(sink), timeout: 60)
        let capture = try recorder.stop()
        #expect(result.process.succeeded, "\(result.process.summary)")
        #expect(result.events.named("trackStarted").map(\.path) == [mp3, flac, opus, aac])
        #expect(result.events.underrunCount == 0)
        let bounds = try #require(SignalAnalysis.signalBounds(capture), "the capture is silent")
        let played = capture.frames(bounds)
        #expect(abs(played.durationSeconds - 6) < 0.15, "played \(played.durationSeconds) s of 6")
        let fiveMilliseconds = SignalAnalysis.frames(milliseconds: 5, sampleRate: capture.sampleRate)
        let gaps = SignalAnalysis.silentRuns(played, minimumFrames: fiveMilliseconds)
        #expect(gaps.isEmpty, "digital silence inside the signal: \(gaps)")
    }
}

/// Point 5: tags from MP4 atoms, Vorbis comments (Ogg and FLAC) into the same
/// fields as ID3's, shown by `info`; invalid UTF-8 is replaced, never a crash.
@Suite struct FormatTagTests {
    static let fields: [(key: String, mp4: String, vorbis: String, value: String)] = [
        ("title", "title", "TITLE", "Chapter Eleven — 第十一章"),
        ("artist", "artist", "ARTIST", "Mary Shelley"),
        ("album", "album", "ALBUM", "Frankenstein"),
        ("albumArtist", "album_artist", "ALBUMARTIST", "Read by Someone"),
        ("track", "track", "TRACKNUMBER", "3/12"),
        ("disc", "disc", "DISCNUMBER", "1/2"),
        ("date", "date", "DATE", "1818"),
    ]

    /// The text fields (lists and numbers left out).
    static func tags(_ path: String) throws -> [String: String] {
        let json = try FormatChapterTests.info(path)
        return try #require(json["tags"] as? [String: Any], "\(json)").compactMapValues { $0 as? String }
    }

    @Test func mp4AtomsAndVorbisComments() throws {
        let wav = try Fixtures.wav(.sweep, seconds: 1, sampleRate: 44100, channels: 2)
        let mp4 = try Fixtures.encode(wav, as: .aac, extraArguments: Self.fields.flatMap { ["-metadata", "\($0.mp4)=\($0.value)"] })
        let vorbis = try Fixtures.encode(wav, as: .vorbis, extraArguments: Self.fields.flatMap { ["-c", "\($0.vorbis)=\($0.value)"] })
        let flac = try Fixtures.encode(wav, as: .flac16, extraArguments: Self.fields.flatMap { ["-T", "\($0.vorbis)=\($0.value)"] })
        for path in [mp4, vorbis, flac] {
            let tags = try Self.tags(path)
            for field in Self.fields {
                // MP4's trkn and disk atoms hold numbers: "3/12" as written.
                #expect(tags[field.key] == field.value, "\(path): \(field.key) is \(String(describing: tags[field.key]))")
            }
        }
        let text = try InterludeBinary.run(["info", mp4], timeout: 60)
        #expect(text.stdoutText.contains("format:    AAC in MP4, 44100 Hz stereo s16"), "\(text.stdoutText)")
        #expect(text.stdoutText.contains("album artist: Read by Someone"), "\(text.stdoutText)")
    }

    @Test func invalidUTF8IsReplaced() throws {
        let wav = try Fixtures.wav(.sweep, seconds: 1, sampleRate: 44100, channels: 2)
        let path = ScratchFiles.makeDirectory("bad-utf8") + "/bad.flac"
        // flac refuses invalid UTF-8 on its command line: write "okQZ" and put two
        // bytes that are no UTF-8 in their place (same length, so the block stays whole).
        let clean = try Fixtures.encode(wav, as: .flac16, extraArguments: ["-T", "TITLE=okQZ end"])
        var bytes = try #require(FileManager.default.contents(atPath: clean))
        let range = try #require(bytes.range(of: Data("okQZ end".utf8)))
        bytes.replaceSubrange(range, with: Data([0x6F, 0x6B, 0xFF, 0xFE]) + Data(" end".utf8))
        try bytes.write(to: URL(fileURLWithPath: path))
        let tags = try Self.tags(path)
        #expect(tags["title"] == "ok\u{FFFD}\u{FFFD} end", "\(tags)")
    }
}
