import LoopIO
import AudioDecoding
import InterludeCore
import AudioEngine

/// `interlude bench decode FILE`: decode speed through the real decoder and ring.
/// `interlude bench seek FILE`: how long an exact seek takes.
public enum BenchCommand {
    public static let help = """
    usage: interlude bench decode FILE
           interlude bench seek FILE [--points N]
           interlude bench cover FILE
           interlude bench feed FILE [--runs N]

    decode: decodes FILE through the same decoder and ring as playback, without
    output, and prints the seconds of audio decoded per CPU second.

    seek: seeks to N (default 50) points spread at random (fixed seed) over FILE,
    each followed by the first 1152 frames read (libmpg123 decodes lazily), and
    prints the median time of a seek on an open decoder, then the median of a
    fresh open plus its first seek.

    cover: draws FILE's cover as the full-screen player does (block symbols on
    58x20 cells, 256 colours) 21 times, each decoded afresh, and prints the CPU
    time of the first (its libraries loaded) and the median of the rest.

    feed: parses the podcast feed FILE as podcast add and refresh do, N + 1 times
    (default 5 + 1) over its bytes in memory, and prints the median CPU time of a
    parse after the first (which loads libxml2).
    """

    public static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            writeStandardOutput(help + "\n")
            return 0
        }
        if arguments.first == "seek" { return seek(Array(arguments.dropFirst())) }
        if arguments.first == "cover" { return cover(Array(arguments.dropFirst())) }
        if arguments.first == "feed" { return feed(Array(arguments.dropFirst())) }
        guard arguments.count == 2, arguments[0] == "decode" else {
            writeStandardError("interlude bench: usage: interlude bench decode FILE | interlude bench seek FILE [--points N]\n")
            return 2
        }
        let path = arguments[1]
        let cpuBefore = processCPUSeconds()
        let feeder = TrackFeeder(paths: [path])
        guard let format = feeder.openFirst() else {
            for case .failed(let error) in feeder.takeEvents() { writeStandardError("interlude: \(error)\n") }
            return 1
        }
        let ring = SPSCRing(minimumCapacity: 16384, slotBytes: format.bytesPerFrame)
        let consumer = ring.consumer
        var frames = 0
        // Decode into the ring and release it at once: the playback path minus the device.
        while !feeder.isExhausted {
            feeder.fill(ring.producer)
            frames += consumer.discardAll()
        }
        let cpu = processCPUSeconds() - cpuBefore
        let audio = format.seconds(forFrames: frames)
        let speed = audio / max(cpu, 1e-6)
        writeStandardOutput("\(JSONLine.number(speed, decimals: 1)) seconds of audio per CPU second "
                            + "(\(JSONLine.number(audio, decimals: 2)) s of audio in \(JSONLine.number(cpu, decimals: 3)) s CPU)\n")
        return 0
    }
}

extension BenchCommand {
    /// Each point is a timed seek; a million take minutes already.
    static let pointsRange = CountRange(1...1_000_000)

    /// A subcommand's FILE and its one counted option (`--points N`, `--runs N`),
    /// the count range-checked; nil when they are not as its usage says (said).
    static func fileAndCount(_ arguments: [String], command: String, option: String, range: CountRange,
                             default count: Int) -> (path: String, count: Int)? {
        var count = count
        var paths: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == option {
                guard let text = rest.popFirst(), let value = range.parse(text) else {
                    writeStandardError("interlude bench \(command): \(option) needs \(range.accepts)\n")
                    return nil
                }
                count = value
            } else {
                paths.append(argument)
            }
        }
        guard paths.count == 1 else {
            writeStandardError("interlude bench: usage: interlude bench \(command) FILE [\(option) N]\n")
            return nil
        }
        return (paths[0], count)
    }

    static func seek(_ arguments: [String]) -> Int32 {
        guard let (path, points) = fileAndCount(arguments, command: "seek", option: "--points", range: pointsRange,
                                                default: 50) else { return 2 }
        do {
            let probe = try Decoders.open(path: path)
            // Without a Xing/Info frame the length is an estimate from the file size:
            // stay clear of its last percent.
            let length = (probe.lengthInFrames ?? 0) * 99 / 100
            let format = probe.format
            probe.close()
            guard length > 4096 else {
                writeStandardError("interlude bench seek: \(path) is too short to seek in\n")
                return 1
            }
            var generator = SeededGenerator(seed: 0x5EE4)
            let targets = (0..<points).map { _ in Int(generator.next() % UInt64(length)) }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1152 * format.bytesPerFrame, alignment: 16)
            defer { buffer.deallocate() }

            // A decoder kept open, as a player keeps it: every seek after the first.
            let decoder = try Decoders.open(path: path)
            var warm: [Double] = []
            for target in targets {
                let start = monotonicSeconds()
                try decoder.seek(toFrame: target)
                _ = try decoder.read(into: buffer)
                warm.append(monotonicSeconds() - start)
            }
            // A fresh open and its first seek (no frame index yet).
            var cold: [Double] = []
            for target in targets {
                let start = monotonicSeconds()
                let fresh = try Decoders.open(path: path)
                try fresh.seek(toFrame: target)
                _ = try fresh.read(into: buffer)
                cold.append(monotonicSeconds() - start)
                fresh.close()
            }
            func milliseconds(_ values: [Double]) -> String {
                let sorted = values.sorted()
                let middle = sorted.count / 2
                let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
                return JSONLine.number(median * 1000, decimals: 3)
            }
            writeStandardOutput("\(milliseconds(warm)) ms median seek on an open decoder; "
                                + "\(milliseconds(cold)) ms median open + first seek "
                                + "(\(points) points over \(JSONLine.number(format.seconds(forFrames: length), decimals: 0)) s)\n")
            return 0
        } catch {
            writeStandardError("interlude: \(error)\n")
            return 1
        }
    }
}
