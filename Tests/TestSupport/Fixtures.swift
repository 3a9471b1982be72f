import InterludeCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Audio fixtures made at test time with `sox`, `lame`, `espeak-ng` and `mpg123`, so
/// nothing copyrighted is committed.
///
/// Every fixture is a file under `Fixtures.directory` (inside the run's
/// `ScratchFiles.directory`) named after its parameters. Each is made once per test
/// process: a second request with the same parameters returns the same path at once.
/// With `INTERLUDE_FIXTURE_DIR` set, fixtures live there instead and are kept across runs
/// (the bench uses `build/bench/fixtures` so its 10-minute file is encoded once) or shared
/// by the test processes of one run (`scripts/run-tests.py`); the tools are run with fixed
/// seeds, so a kept file equals a fresh one.
/// All functions are thread-safe (generation is serialized by one lock) and throw
/// `ProcessError` with the tool's stderr when a tool fails.
public enum Fixtures {
    /// What a generated WAV contains.
    public enum Signal: Hashable, Sendable, CustomStringConvertible {
        /// Exponential sine sweeps (100 Hz to 6 kHz on the first channel, 150 Hz to 8 kHz on
        /// the second) under a slow tremolo: every instant differs from every other, so a
        /// correlation has exactly one peak, and the level varies like music. The default.
        case sweep
        /// A steady sine at `frequency` Hz (phase-continuous; periodic, so do not align on it).
        case tone(frequency: Double)
        /// Plucked-string chords, changing every second: music-like, with quiet gaps
        /// between notes only at the end of each note's decay.
        case music
        /// `text` spoken by espeak-ng, repeated to fill the duration.
        case speech(text: String)

        public var description: String {
            switch self {
            case .sweep: return "sweep"
            case .tone(let frequency): return "tone\(Int(frequency))"
            case .music: return "music"
            case .speech(let text): return "speech\(stableHash(text))"
            }
        }
    }

    /// How LAME encodes.
    public enum Encoding: Hashable, Sendable, CustomStringConvertible {
        /// Constant bitrate in kbps (`lame -b N --cbr`). MPEG-2.5 rates (8 kHz) allow at most 64.
        case cbr(kbps: Int)
        /// Variable bitrate, quality 0 (best) ... 9 (`lame -V N`).
        case vbr(quality: Int)

        public var description: String {
            switch self {
            case .cbr(let kbps): return "cbr\(kbps)"
            case .vbr(let quality): return "vbr\(quality)"
            }
        }

        var lameArguments: [String] {
            switch self {
            case .cbr(let kbps): return ["-b", String(kbps), "--cbr"]
            case .vbr(let quality): return ["-V", String(quality)]
            }
        }
    }

    /// Inputs the player must refuse with one clear line.
    public enum BrokenInput: String, Sendable, CaseIterable {
        /// A zero-byte `empty.mp3`.
        case empty
        /// 64 KB of (seeded, repeatable) random bytes named `random.mp3`.
        case randomBytes
        /// A PNG spectrogram made by sox, renamed `image.mp3`.
        case image
        /// The first 40% of a valid 3 s MP3, cut in the middle of a frame.
        case truncated
        /// A directory named `folder.mp3`.
        case directory
        /// A path that does not exist (`missing.mp3`); nothing is created.
        case missing
    }

    /// Two MP3s cut from one continuous signal, each with its LAME gapless (Xing/LAME
    /// info) header, and the WAV they were cut from.
    public struct GaplessPair: Sendable {
        public var first: String
        public var second: String
        /// The uncut source WAV (first.seconds + second.seconds long).
        public var source: String
    }

    /// Where fixtures are written.
    public static var directory: String { cache.directory }

    /// A 16-bit PCM WAV of `signal`, `seconds` long, exactly `round(seconds * sampleRate)` frames.
    public static func wav(_ signal: Signal = .sweep, seconds: Double, sampleRate: Int = 44100, channels: Int = 2) throws -> String {
        let name = "\(signal)-\(format(seconds))s-\(sampleRate)-\(channels).wav"
        return try cache.make(name) { path in
            let header = ["-D", "-R", "-n", "-r", String(sampleRate), "-c", String(channels), "-b", "16", path]
            let length = String(format: "%.6f", seconds)
            switch signal {
            case .sweep:
                try run("sox", header + ["synth", length, "sine", "100/6000", "sine", "150/8000",
                                         "tremolo", "1.7", "40", "vol", "0.45"])
            case .tone(let frequency):
                try run("sox", header + ["synth", length, "sine", format(frequency), "vol", "0.5"])
            case .music:
                // One chord a second, cycling; ":" chains run one after the other into one
                // file. The whole seconds are made first, then trimmed to the exact length.
                let chords = [["C4", "E4", "G4"], ["A3", "C4", "E4"], ["F3", "A3", "C4"], ["G3", "B3", "D4"]]
                let chordsPath = path + ".chords.wav"
                var arguments = ["-D", "-R", "-n", "-r", String(sampleRate), "-c", String(channels), "-b", "16", chordsPath]
                for index in 0..<max(1, Int(seconds.rounded(.up))) {
                    if index > 0 { arguments.append(":") }
                    arguments += ["synth", "1"] + chords[index % chords.count].flatMap { ["pluck", $0] }
                }
                try run("sox", arguments)
                try run("sox", ["-D", chordsPath, path, "trim", "0", "\(Int((seconds * Double(sampleRate)).rounded()))s", "vol", "0.6"])
                unlink(chordsPath)
            case .speech(let text):
                let spoken = path + ".espeak.wav"
                try run("espeak-ng", ["-w", spoken, text])
                let spokenSeconds = try WAVFile.read(spoken).durationSeconds
                let repeats = max(0, Int((seconds / max(spokenSeconds, 0.1)).rounded(.up)) - 1)
                // Explicit rate/channels effects before trim: sox would otherwise place the
                // rate change last and count the trim's samples at espeak's 22.05 kHz.
                try run("sox", ["-D", spoken, "-b", "16", path, "channels", String(channels), "rate", String(sampleRate),
                                "repeat", String(repeats), "trim", "0", "\(Int((seconds * Double(sampleRate)).rounded()))s"])
                unlink(spoken)
            }
        }
    }

    /// An MP3 of `signal` encoded by LAME (with its gapless info header).
    public static func mp3(_ signal: Signal = .sweep, seconds: Double, sampleRate: Int = 44100, channels: Int = 2,
                           encoding: Encoding = .cbr(kbps: 128)) throws -> String {
        try encode(wav(signal, seconds: seconds, sampleRate: sampleRate, channels: channels), encoding: encoding)
    }

    /// `wavPath` encoded by LAME, at the WAV's own rate and channel count.
    public static func encode(_ wavPath: String, encoding: Encoding = .cbr(kbps: 128)) throws -> String {
        let name = "\(baseName(wavPath))-\(encoding).mp3"
        return try cache.make(name) { path in
            // --noreplaygain keeps the run deterministic and the file small; LAME writes its
            // Xing/LAME info frame (encoder delay and padding) by default, which gapless needs.
            var arguments = ["--quiet", "--noreplaygain"] + encoding.lameArguments
            if (try? WAVFile.read(wavPath).channels) == 1 { arguments += ["-m", "m"] }
            try run("lame", arguments + [wavPath, path])
        }
    }

    /// `wavPath` encoded by LAME at constant `kbps` without the Xing/Info frame
    /// (`lame -t`): no TOC, no length and no gapless info, so libmpg123 neither
    /// trims encoder delay and padding nor knows where a time lies in the file.
    public static func encodeWithoutInfoFrame(_ wavPath: String, kbps: Int) throws -> String {
        let name = "\(baseName(wavPath))-cbr\(kbps)-noinfo.mp3"
        return try cache.make(name) { path in
            var arguments = ["--quiet", "--noreplaygain", "-t", "-b", String(kbps), "--cbr"]
            if (try? WAVFile.read(wavPath).channels) == 1 { arguments += ["-m", "m"] }
            try run("lame", arguments + [wavPath, path])
        }
    }

    /// `silence` seconds of digital silence, then `noise` seconds of white noise
    /// at half scale (44.1 kHz stereo), as VBR (`lame -V 2`): a file whose
    /// bitrate changes. `headerless` leaves out the Xing/Info frame and LAME tag
    /// (`lame -t`), so libmpg123 can only estimate its length, and far off.
    public static func silenceThenNoiseVBR(silence: Int, noise: Int, headerless: Bool) throws -> String {
        let wav = try cache.make("silence\(silence)-noise\(noise)-44100-2.wav") { path in
            let (quiet, loud) = (path + ".silence.wav", path + ".noise.wav")
            defer { unlink(quiet); unlink(loud) }
            try run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", quiet, "trim", "0", String(silence)])
            try run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", loud, "synth", String(noise), "whitenoise", "vol", "0.5"])
            try run("sox", ["-q", quiet, loud, path])
        }
        return try cache.make("\(baseName(wav))-vbr2\(headerless ? "-noinfo" : "").mp3") { path in
            try run("lame", ["--quiet", "-V", "2"] + (headerless ? ["-t"] : []) + [wav, path])
        }
    }

    /// `mp3Path` repeated `times` times, byte for byte, in one file (a long book
    /// made of one short encode: the 3-hour seek fixture is a one-minute file times 180).
    public static func concatenated(_ mp3Path: String, times: Int) throws -> String {
        try cache.make("\(baseName(mp3Path))-x\(times).mp3") { path in
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            guard let data = FileManager.default.contents(atPath: mp3Path),
                  let output = FileHandle(forWritingAtPath: path) else {
                throw ProcessError.notReady("cannot read \(mp3Path) or write \(path)")
            }
            defer { try? output.close() }
            for _ in 0..<times { try output.write(contentsOf: data) }
        }
    }

    /// Two MP3s cut from one continuous `signal` at `firstSeconds`, each encoded separately.
    public static func gaplessPair(_ signal: Signal = .tone(frequency: 440), firstSeconds: Double = 3, secondSeconds: Double = 3,
                                   sampleRate: Int = 44100, channels: Int = 2,
                                   encoding: Encoding = .cbr(kbps: 128)) throws -> GaplessPair {
        let source = try wav(signal, seconds: firstSeconds + secondSeconds, sampleRate: sampleRate, channels: channels)
        let cut = Int((firstSeconds * Double(sampleRate)).rounded())
        let firstWAV = try cache.make("\(baseName(source))-part1-\(cut).wav") { path in
            try run("sox", [source, path, "trim", "0", "\(cut)s"])
        }
        let secondWAV = try cache.make("\(baseName(source))-part2-\(cut).wav") { path in
            try run("sox", [source, path, "trim", "\(cut)s"])
        }
        return GaplessPair(first: try encode(firstWAV, encoding: encoding), second: try encode(secondWAV, encoding: encoding),
                           source: source)
    }

    /// `mp3Path` decoded by the `mpg123` program to a 16-bit WAV (`mpg123 -q -w`): the
    /// decoding oracle. Gapless is on by default in mpg123, as in the player.
    public static func decodedByMPG123(_ mp3Path: String) throws -> String {
        try cache.make("\(baseName(mp3Path))-mpg123.wav") { path in
            try run("mpg123", ["-q", "-w", path, mp3Path])
        }
    }

    /// `wavPath` converted by sox to another rate and/or channel count (for comparing a
    /// 48 kHz source with a 44.1 kHz capture).
    public static func resampled(_ wavPath: String, sampleRate: Int, channels: Int) throws -> String {
        try cache.make("\(baseName(wavPath))-to-\(sampleRate)-\(channels).wav") { path in
            try run("sox", ["-D", wavPath, "-r", String(sampleRate), "-c", String(channels), "-b", "16", path, "rate", "-v"])
        }
    }

    /// A bad input of the given kind (see `BrokenInput`).
    public static func broken(_ kind: BrokenInput) throws -> String {
        switch kind {
        case .missing:
            return "\(directory)/missing.mp3"
        case .empty:
            return try cache.make("empty.mp3") { path in
                _ = FileManager.default.createFile(atPath: path, contents: Data())
            }
        case .randomBytes:
            return try cache.make("random.mp3") { path in
                var generator = SeededGenerator(seed: 0x1A7E_41DE)
                let bytes = (0..<65_536).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            }
        case .image:
            return try cache.make("image.mp3") { path in
                let source = try wav(.sweep, seconds: 1, sampleRate: 8000, channels: 1)
                try run("sox", [source, "-n", "spectrogram", "-x", "100", "-y", "65", "-r", "-o", path])
            }
        case .truncated:
            let whole = try mp3(.sweep, seconds: 3)
            return try cache.make("truncated.mp3") { path in
                let data = FileManager.default.contents(atPath: whole) ?? Data()
                // 40% plus an odd offset lands inside a frame, not on a frame boundary.
                _ = FileManager.default.createFile(atPath: path, contents: data.prefix(data.count * 2 / 5 + 137))
            }
        case .directory:
            return try cache.make("folder.mp3") { path in
                mkdir(path, 0o755)
            }
        }
    }

    // MARK: Internals

    static let cache = FixtureCache()

    /// Runs a fixture tool and throws with its stderr when it fails.
    static func run(_ tool: String, _ arguments: [String]) throws {
        try ProcessRunner.check(tool, arguments, timeout: 600)
    }

    static func baseName(_ path: String) -> String {
        let file = (path as NSString).lastPathComponent
        return (file as NSString).deletingPathExtension
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// Paths made once per process, keyed by file name. `make` holds one lock while a file is
/// generated, so concurrent tests asking for the same fixture wait for the first. The lock
/// is recursive because one fixture's generator asks for another (the image needs a WAV).
final class FixtureCache: @unchecked Sendable {
    // @unchecked: `made` is only touched with `lock` held.
    let directory: String
    private let lock = NSRecursiveLock()
    private var made: Set<String> = []

    /// True when files left by an earlier run count as made (a persistent directory).
    private let persistent: Bool

    init() {
        if let fixed = ProcessInfo.processInfo.environment["INTERLUDE_FIXTURE_DIR"], !fixed.isEmpty {
            directory = fixed
            persistent = true
            _ = try? FileManager.default.createDirectory(atPath: fixed, withIntermediateDirectories: true)
        } else {
            directory = ScratchFiles.directory + "/fixtures"
            persistent = false
            mkdir(directory, 0o755)
        }
    }

    func make(_ name: String, _ generate: (String) throws -> Void) throws -> String {
        lock.lock(); defer { lock.unlock() }
        let path = "\(directory)/\(name)"
        if made.contains(name) { return path }
        // Files appear only by rename after a complete generation, so one that exists is whole.
        if persistent && FileManager.default.fileExists(atPath: path) {
            made.insert(name)
            return path
        }
        // Write under a temporary name so a failed generation never leaves a half file; the
        // process id in it lets test processes share one directory (scripts/run-tests.py),
        // each making a fixture it lacks and renaming its own whole copy into place.
        let partial = "\(directory)/.partial-\(getpid())-\(name)"
        unlink(partial)
        try generate(partial)
        guard rename(partial, path) == 0 else {
            throw ProcessError.notReady("fixture \(name) was not produced")
        }
        made.insert(name)
        return path
    }
}

/// FNV-1a, for short stable file-name keys (Swift's `hashValue` changes per process).
func stableHash(_ text: String) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    return String(hash & 0xFFFF_FFFF, radix: 16)
}
