import Foundation

/// Fixtures in the formats beyond MP3, made at test time from `Fixtures.wav` by
/// the `ffmpeg` program and the formats' own encoders (`flac`, `oggenc`,
/// `opusenc`), and their reference decodes by `ffmpeg`.
extension Fixtures {
    /// A codec in its usual container.
    public enum Codec: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// AAC-LC in MP4 by ffmpeg's native encoder (with the edit list that trims its priming).
        case aac
        /// ALAC in MP4 by ffmpeg.
        case alac
        /// FLAC by the `flac` program, 16-bit.
        case flac16
        /// FLAC by the `flac` program from a 24-bit WAV (sox's conversion, no dither).
        case flac24
        /// Ogg Vorbis by `oggenc`.
        case vorbis
        /// Ogg Opus by `opusenc` (48 kHz, whatever the input's rate).
        case opus

        public var description: String { rawValue }

        public var fileExtension: String {
            switch self {
            case .aac, .alac: return "m4a"
            case .flac16, .flac24: return "flac"
            case .vorbis: return "ogg"
            case .opus: return "opus"
            }
        }
    }

    /// `wavPath` encoded as `codec`; `name` overrides the file's extension
    /// (an Ogg file named `.mp3`, an `.m4b`).
    public static func encode(_ wavPath: String, as codec: Codec, fileExtension: String? = nil,
                              extraArguments: [String] = []) throws -> String {
        let suffix = extraArguments.isEmpty ? "" : "-x\(stableHash(extraArguments.joined(separator: " ")))"
        // The source's whole path in the name, not only its file name: two tests'
        // own "tone.wav" in their own folders are different sounds.
        let name = "\(baseName(wavPath))-\(stableHash(wavPath))-\(codec)\(suffix).\(fileExtension ?? codec.fileExtension)"
        return try cache.make(name) { path in
            // The encoders pick their output format from the name: write to the
            // usual extension, then rename.
            let temporary = path + ".tmp." + codec.fileExtension
            switch codec {
            case .aac:
                try run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", wavPath, "-c:a", "aac", "-b:a", "128k"]
                        + extraArguments + [temporary])
            case .alac:
                try run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", wavPath, "-c:a", "alac"] + extraArguments + [temporary])
            case .flac16:
                try run("flac", ["-s", "-f"] + extraArguments + ["-o", temporary, wavPath])
            case .flac24:
                let wide = path + ".24.wav"
                defer { unlink(wide) }
                try run("sox", ["-D", wavPath, "-b", "24", wide])
                try run("flac", ["-s", "-f"] + extraArguments + ["-o", temporary, wide])
            case .vorbis:
                try run("oggenc", ["-Q"] + extraArguments + ["-o", temporary, wavPath])
            case .opus:
                try run("opusenc", ["--quiet"] + extraArguments + [wavPath, temporary])
            }
            guard rename(temporary, path) == 0 else {
                throw ProcessError.notReady("cannot rename \(temporary) to \(path)")
            }
        }
    }

    /// `path` decoded by the `ffmpeg` program to signed 16-bit (`-f s16le`) at
    /// `sampleRate` and `channels`: the oracle of the FFmpeg decoder's tests.
    public static func decodedByFFmpeg(_ path: String, sampleRate: Int, channels: Int) throws -> PCMAudio {
        let raw = try cache.make("\(baseName(path))-\((path as NSString).pathExtension)-ffmpeg-\(sampleRate)-\(channels).s16") { output in
            try run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", path, "-f", "s16le", "-ac", String(channels),
                               "-ar", String(sampleRate), output])
        }
        guard let data = FileManager.default.contents(atPath: raw) else {
            throw ProcessError.notReady("cannot read \(raw)")
        }
        let samples = data.withUnsafeBytes { bytes in
            (0..<data.count / 2).map { Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)) }
        }
        return PCMAudio(sampleRate: sampleRate, channels: channels, samples: samples)
    }

    /// A copy of `path` under another name (an Ogg file named `.mp3`).
    public static func copy(_ path: String, as name: String) throws -> String {
        try cache.make(name) { destination in
            try FileManager.default.copyItem(atPath: path, toPath: destination)
        }
    }

    /// One Ogg file of a chain per song, as an Ogg station's source sends its
    /// playlist: `seconds` of a tone of the song's own (440 Hz, then 660, 880...),
    /// encoded by `codec` (`.opus` or `.vorbis`) with the song's ARTIST and TITLE
    /// in its comment header, the chains one after another.
    /// `organization`: each chain's ORGANIZATION comment too (the station's name, as a source may send it).
    public static func chainedOgg(_ codec: Codec, songs: [(artist: String, title: String)], seconds: Double,
                                  organization: String? = nil) throws -> String {
        let chains = try songs.enumerated().map { index, song in
            let wav = try wav(.tone(frequency: 440 + 220 * Double(index)), seconds: seconds)
            let named = organization.map { ["ORGANIZATION=\($0)"] } ?? []
            switch codec {
            case .opus: return try encode(wav, as: .opus, extraArguments: ["--artist", song.artist, "--title", song.title]
                                              + named.flatMap { ["--comment", $0] })
            case .vorbis: return try encode(wav, as: .vorbis, extraArguments: ["-a", song.artist, "-t", song.title]
                                                + named.flatMap { ["-c", $0] })
            default: throw ProcessError.notReady("a chained Ogg file is Opus or Vorbis, not \(codec)")
            }
        }
        let name = "chained-\(stableHash(chains.joined(separator: "|"))).\(codec.fileExtension)"
        return try cache.make(name) { path in
            var bytes = Data()
            for chain in chains { bytes += try Data(contentsOf: URL(fileURLWithPath: chain)) }
            guard FileManager.default.createFile(atPath: path, contents: bytes) else {
                throw ProcessError.notReady("cannot write \(path)")
            }
        }
    }

    /// A file of `name` whose bytes are `contents`.
    public static func file(named name: String, contents: Data) throws -> String {
        try cache.make(name) { path in
            guard FileManager.default.createFile(atPath: path, contents: contents) else {
                throw ProcessError.notReady("cannot write \(path)")
            }
        }
    }

    /// Files in the new formats the player must refuse or play around, each with one line.
    public enum BrokenFormat: String, Sendable, CaseIterable {
        /// The first 40% of a 3 s AAC file named `.m4b`: ffmpeg writes the `moov` box last, so it is missing.
        case truncatedM4B
        /// An MP4 with one video track (ffmpeg's test pattern, MPEG-4 part 2) and no audio.
        case videoOnlyMP4
        /// A 3 s FLAC with 200 bytes in its middle scrambled: one frame fails its checksum.
        case damagedFLAC
        /// A text file named `.m4b`.
        case textM4B
    }

    public static func broken(_ kind: BrokenFormat) throws -> String {
        switch kind {
        case .truncatedM4B:
            let aac = try encode(wav(.sweep, seconds: 3, sampleRate: 44100, channels: 2), as: .aac)
            guard let data = FileManager.default.contents(atPath: aac) else { throw ProcessError.notReady("cannot read \(aac)") }
            return try file(named: "truncated.m4b", contents: data.prefix(data.count * 4 / 10))
        case .videoOnlyMP4:
            return try cache.make("video-only.mp4") { path in
                try run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=64x64:rate=10", "-t", "1",
                                   "-c:v", "mpeg4", path])
            }
        case .damagedFLAC:
            let flac = try encode(wav(.sweep, seconds: 3, sampleRate: 44100, channels: 2), as: .flac16)
            guard var data = FileManager.default.contents(atPath: flac) else { throw ProcessError.notReady("cannot read \(flac)") }
            let middle = data.count / 2
            for index in middle..<(middle + 200) { data[index] ^= 0x5a }
            return try file(named: "damaged.flac", contents: data)
        case .textM4B:
            return try file(named: "notes.m4b", contents: Data("Chapter list, to be filled in.\n".utf8))
        }
    }

    /// `signal` cut at `firstSeconds` into two WAVs (the second `secondSeconds` long),
    /// for encoding each on its own: a gapless pair in any codec.
    public static func cutWAVs(_ signal: Signal = .tone(frequency: 440), firstSeconds: Double, secondSeconds: Double,
                               sampleRate: Int = 44100, channels: Int = 2) throws -> (first: String, second: String) {
        let source = try wav(signal, seconds: firstSeconds + secondSeconds, sampleRate: sampleRate, channels: channels)
        let cut = Int((firstSeconds * Double(sampleRate)).rounded())
        let first = try cache.make("\(baseName(source))-head-\(cut).wav") { path in
            try run("sox", [source, path, "trim", "0", "\(cut)s"])
        }
        let second = try cache.make("\(baseName(source))-tail-\(cut).wav") { path in
            try run("sox", [source, path, "trim", "\(cut)s"])
        }
        return (first, second)
    }

    /// `minutes` of the one-minute sweep in one AAC M4B (64 kbps mono, 44.1 kHz),
    /// encoded in one go from the minute looped (`ffmpeg -stream_loop`), about
    /// 0.3 s of encoding a minute: a long book whose timestamps are those of a
    /// real encode. (Joining MP4 files with ffmpeg's concat demuxer and `-c copy`
    /// gives packets of 1 and 1007 ticks at the joins that still decode to 1024
    /// samples, so timestamps and samples disagree there.) Without perceptual
    /// noise substitution: see `FormatSeekTests`.
    public static func longAAC(minutes: Int) throws -> String {
        let minute = try wav(.sweep, seconds: 60, sampleRate: 44100, channels: 1)
        return try cache.make("sweep-\(minutes)min-aac64.m4b") { path in
            try run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-stream_loop", String(minutes - 1), "-i", minute,
                               "-c:a", "aac", "-aac_pns", "0", "-b:a", "64k", "-f", "mp4", path])
        }
    }
}
