import Foundation

/// Files in the formats FFmpeg's probe decides (no decoder of ours
/// claims them by a magic number), made at test time by their own encoders
/// (`wavpack`, `mpcenc`) or `ffmpeg`, each tagged by the tool or by mutagen,
/// and DSF written here (ffmpeg has no DSD encoder): a first-order
/// sigma-delta modulation of the source WAV, in DSF's fixed chunks.
extension Fixtures {
    public enum ProbedFormat: String, Sendable, CaseIterable, CustomStringConvertible {
        /// WavPack by `wavpack`, tagged with `wavpack -w` (APEv2).
        case wavpack
        /// Musepack SV8 by `mpcenc`, tagged by its options (APEv2).
        case musepack
        /// Monkey's Audio by JMAC (`jmac c2`, a Java implementation: Debian has no other
        /// encoder), tagged by mutagen (APEv2).
        case monkeysAudio
        /// TTA by ffmpeg, tagged by `-metadata` (ffmpeg's TTA muxer writes APEv2).
        case tta
        /// AIFF by ffmpeg with an `ID3 ` chunk (`-write_id3v2 1`).
        case aiff
        /// WMA (wmav2 in ASF) by ffmpeg, tagged by `-metadata`.
        case wma
        /// A Matroska video (MPEG-4 part 2 test pattern) with a FLAC audio track.
        case matroskaVideo
        /// An MP4 video (two video tracks before the audio) with an ALAC audio track.
        case mp4Video
        /// DSD64 in DSF, written here, tagged by mutagen (an ID3v2 tag the header points to).
        case dsf
        /// DSD64 in DSDIFF, written here, tagged by mutagen (an `ID3 ` chunk).
        case dff

        public var description: String { rawValue }

        var fileExtension: String {
            switch self {
            case .wavpack: "wv"
            case .musepack: "mpc"
            case .monkeysAudio: "ape"
            case .tta: "tta"
            case .aiff: "aiff"
            case .wma: "wma"
            case .matroskaVideo: "mkv"
            case .mp4Video: "mp4"
            case .dsf: "dsf"
            case .dff: "dff"
            }
        }

        /// Whether mutagen reads its tags (it has no Matroska or MP4-video reader here).
        public var tagged: Bool { self != .matroskaVideo && self != .mp4Video }
    }

    /// The tags every tagged fixture carries.
    public static let probedTags = (title: "Ünïcode — 第一", artist: "The Artist", album: "An Album", track: "2/9", year: "2021")

    /// `wavPath` in `format`, tagged with `probedTags` where the format carries tags.
    public static func probed(_ wavPath: String, as format: ProbedFormat) throws -> String {
        let name = "\(baseName(wavPath))-\(stableHash(wavPath))-probed.\(format.fileExtension)"
        let tags = probedTags
        let metadata = ["-metadata", "title=\(tags.title)", "-metadata", "artist=\(tags.artist)",
                        "-metadata", "album=\(tags.album)", "-metadata", "track=\(tags.track)", "-metadata", "date=\(tags.year)"]
        return try cache.make(name) { path in
            let ffmpeg = ["-nostdin", "-v", "error", "-y"]
            switch format {
            case .wavpack:
                try run("wavpack", ["-q", "-y", "-w", "Title=\(tags.title)", "-w", "Artist=\(tags.artist)", "-w", "Album=\(tags.album)",
                                    "-w", "Track=\(tags.track)", "-w", "Year=\(tags.year)", wavPath, "-o", path])
            case .musepack:
                try run("mpcenc", ["--silent", "--overwrite", "--title", tags.title, "--artist", tags.artist, "--album", tags.album,
                                   "--track", tags.track, "--year", tags.year, wavPath, path])
            case .monkeysAudio:
                try run("jmac", ["c2", wavPath, path])
                try ProcessRunner.check("python3", ["-c", """
                    import sys
                    from mutagen.apev2 import APEv2
                    t = APEv2()
                    for key, value in zip(("Title", "Artist", "Album", "Track", "Year"), sys.argv[2:]): t[key] = value
                    t.save(sys.argv[1])
                    """, path, tags.title, tags.artist, tags.album, tags.track, tags.year],
                    environment: ["PYTHONPATH": "\(InterludeBinary.packageRoot)/build/python"])
            case .tta, .wma, .aiff:
                let codec: [String] = switch format {
                case .wma: ["-c:a", "wmav2", "-b:a", "128k"]
                case .aiff: ["-write_id3v2", "1"]
                default: []
                }
                let temporary = path + ".tmp." + format.fileExtension
                try run("ffmpeg", ffmpeg + ["-i", wavPath] + codec + metadata + [temporary])
                guard rename(temporary, path) == 0 else { throw ProcessError.notReady("cannot rename \(temporary)") }
            case .matroskaVideo, .mp4Video:
                let temporary = path + ".tmp." + format.fileExtension
                let video = ["-f", "lavfi", "-i", "testsrc=size=64x64:rate=10"]
                let audio = format == .mp4Video ? ["-c:a", "alac"] : ["-c:a", "flac"]
                // The MP4 has two video tracks ahead of the audio: the best audio stream is found, not the first.
                let maps = format == .mp4Video ? ["-map", "0:v", "-map", "0:v", "-map", "1:a"] : ["-map", "0:v", "-map", "1:a"]
                try run("ffmpeg", ffmpeg + video + ["-i", wavPath] + maps + ["-c:v", "mpeg4"] + audio + ["-shortest", temporary])
                guard rename(temporary, path) == 0 else { throw ProcessError.notReady("cannot rename \(temporary)") }
            case .dsf, .dff:
                let source = try WAVFile.read(wavPath)
                guard FileManager.default.createFile(atPath: path, contents: format == .dsf ? dsf(source) : dff(source)) else {
                    throw ProcessError.notReady("cannot write \(path)")
                }
                try ProcessRunner.check("python3", ["-c", """
                    import sys
                    from mutagen.dsf import DSF
                    from mutagen.dsdiff import DSDIFF
                    from mutagen.id3 import TIT2, TPE1, TALB, TRCK, TDRC
                    f = (DSF if sys.argv[1].endswith(".dsf") else DSDIFF)(sys.argv[1]); f.add_tags()
                    for frame, text in ((TIT2, sys.argv[2]), (TPE1, sys.argv[3]), (TALB, sys.argv[4]), (TRCK, sys.argv[5]), (TDRC, sys.argv[6])):
                        f.tags.add(frame(encoding=3, text=[text]))
                    f.save()
                    """, path, tags.title, tags.artist, tags.album, tags.track, tags.year],
                    environment: ["PYTHONPATH": "\(InterludeBinary.packageRoot)/build/python"])
            }
        }
    }

    /// Each channel of `source` as DSD64 (64 times 44.1 kHz, one bit a
    /// sample), by a first-order sigma-delta loop, 8 samples a byte in time
    /// order from the least significant bit (`lsbFirst`) or the most; `length`
    /// bytes a channel, the rest DSD's silence pattern.
    static func dsd(_ source: PCMAudio, length: Int, lsbFirst: Bool) -> [[UInt8]] {
        let ratio = 2_822_400 / source.sampleRate
        let channels = source.channels
        let frames = source.frameCount
        var channelBytes = [[UInt8]](repeating: [UInt8](repeating: 0x69, count: length), count: channels)
        for channel in 0..<channels {
            var integrator = 0.0
            var bit = 0
            channelBytes[channel].withUnsafeMutableBufferPointer { bytes in
                for frame in 0..<frames {
                    let value = Double(source.samples[frame * channels + channel]) / 32768 * 0.5
                    for _ in 0..<ratio {
                        let output = integrator >= 0 ? 1.0 : -1.0
                        integrator += value - output * 0.5
                        if bit % 8 == 0 { bytes[bit / 8] = 0 }
                        if output > 0 { bytes[bit / 8] |= UInt8(1 << (lsbFirst ? bit % 8 : 7 - bit % 8)) }
                        bit += 1
                    }
                }
            }
        }
        return channelBytes
    }

    /// `source` in DSF's chunks: "DSD " (sizes, no tag), "fmt " (version 1,
    /// raw DSD, channels, 2,822,400 Hz, 1 bit least significant first,
    /// samples, 4096-byte blocks), "data" (each channel's blocks in turn, the
    /// last padded with silence).
    static func dsf(_ source: PCMAudio) -> Data {
        let channels = source.channels
        let bitsPerChannel = source.frameCount * (2_822_400 / source.sampleRate)
        let blockSize = 4096
        let blocks = (bitsPerChannel / 8 + blockSize - 1) / blockSize
        let channelBytes = dsd(source, length: blocks * blockSize, lsbFirst: true)
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var data: [UInt8] = []
        for block in 0..<blocks {
            for channel in 0..<channels { data += channelBytes[channel][block * blockSize..<(block + 1) * blockSize] }
        }
        let total = 28 + 52 + 12 + data.count
        var bytes = Array("DSD ".utf8) + le(28, 8) + le(total, 8) + le(0, 8)
        bytes += Array("fmt ".utf8) + le(52, 8) + le(1, 4) + le(0, 4) + le(channels == 1 ? 1 : 2, 4) + le(channels, 4)
            + le(2_822_400, 4) + le(1, 4) + le(bitsPerChannel, 8) + le(blockSize, 4) + le(0, 4)
        bytes += Array("data".utf8) + le(12 + data.count, 8) + data
        return Data(bytes)
    }

    /// `source` in DSDIFF's chunks (big-endian 64-bit sizes): "FRM8" holding
    /// "DSD ", "FVER" (1.5), "PROP" "SND " with "FS  " (2,822,400 Hz), "CHNL"
    /// (the channels' names), "CMPR" ("DSD ", not compressed), then the "DSD "
    /// data: a byte of each channel in turn, most significant bit first.
    static func dff(_ source: PCMAudio) -> Data {
        let channels = source.channels
        let length = source.frameCount * (2_822_400 / source.sampleRate) / 8
        let channelBytes = dsd(source, length: length, lsbFirst: false)
        func be(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] { Array(id.utf8) + be(body.count, 8) + body + (body.count % 2 == 1 ? [0] : []) }
        let names = channels == 1 ? ["C   "] : ["SLFT", "SRGT"]
        let compression = Array("DSD ".utf8) + [14] + Array("not compressed".utf8)
        let properties = Array("SND ".utf8) + chunk("FS  ", be(2_822_400, 4))
            + chunk("CHNL", be(channels, 2) + names.flatMap { Array($0.utf8) }) + chunk("CMPR", compression)
        var data = [UInt8]()
        data.reserveCapacity(length * channels)
        for index in 0..<length { for channel in 0..<channels { data.append(channelBytes[channel][index]) } }
        let body = Array("DSD ".utf8) + chunk("FVER", be(0x0105_0000, 4)) + chunk("PROP", properties) + chunk("DSD ", data)
        return Data(Array("FRM8".utf8) + be(body.count, 8) + body)
    }

    /// The tags mutagen reads from `path` (APEv2, the ID3 chunk of an AIFF, a
    /// DSF's ID3 tag, ASF's attributes) under `info --json`'s names: title,
    /// artist, album, track, year. The oracle of the tag tests.
    public static func tagsByMutagen(_ path: String, format: ProbedFormat) throws -> [String: String] {
        let script = """
            import sys, json
            path, kind = sys.argv[1], sys.argv[2]
            out = {}
            if kind in ("wavpack", "musepack", "monkeysAudio", "tta"):
                from mutagen.apev2 import APEv2
                tag = {k.lower(): v for k, v in APEv2(path).items()}
                # ffmpeg's muxers write "date" where APEv2's name is "Year".
                for name, key in (("title", "title"), ("artist", "artist"), ("album", "album"), ("track", "track"), ("year", "year"), ("year", "date")):
                    if key in tag and name not in out: out[name] = "\\x00".join(list(tag[key]))
            elif kind in ("aiff", "dsf", "dff"):
                from mutagen.aiff import AIFF
                from mutagen.dsf import DSF
                from mutagen.dsdiff import DSDIFF
                tags = {"aiff": AIFF, "dsf": DSF, "dff": DSDIFF}[kind](path).tags
                for name, key in (("title", "TIT2"), ("artist", "TPE1"), ("album", "TALB"), ("track", "TRCK"), ("year", "TDRC")):
                    if key in tags: out[name] = "\\x00".join(str(t) for t in tags[key].text)
            elif kind == "wma":
                from mutagen.asf import ASF
                tags = ASF(path).tags
                # ffmpeg writes the year as a "date" attribute, not "WM/Year".
                for name, key in (("title", "Title"), ("artist", "Author"), ("album", "WM/AlbumTitle"), ("track", "WM/TrackNumber"), ("year", "WM/Year"), ("year", "date")):
                    if key in tags and name not in out: out[name] = str(tags[key][0])
            print(json.dumps(out))
            """
        let result = try ProcessRunner.check("python3", ["-c", script, path, format.rawValue],
                                             environment: ["PYTHONPATH": "\(InterludeBinary.packageRoot)/build/python"])
        return try JSONSerialization.jsonObject(with: result.stdout) as? [String: String] ?? [:]
    }
}
