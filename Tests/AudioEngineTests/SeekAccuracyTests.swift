import InterludeCore
import AudioDecoding
import Foundation
import Testing
import TestSupport

/// Seeking anywhere in a 3-hour 64 kbps mono MP3 made of
/// a one-minute CBR file without a Xing/Info frame, concatenated 180 times, is
/// sample-accurate: the frames after a seek equal those at the same position of
/// a full sequential decode, by the same decoder and by `mpg123` (the oracle).
/// Joins repeat the encoder's delay and padding; a full decode contains them too.
/// (Its speed is measured by `make bench`, section `seek`.)
@Suite struct SeekAccuracyTests {
    static let windowFrames = 4096

    /// The 3-hour file, made once per run (concatenation takes well under a second).
    static func threeHourFile() throws -> String {
        let minute = try Fixtures.wav(.sweep, seconds: 60, sampleRate: 44100, channels: 1)
        return try Fixtures.concatenated(Fixtures.encodeWithoutInfoFrame(minute, kbps: 64), times: 180)
    }

    @Test func seeksAnywhereInThreeHourFileWithoutInfoFrameMatchFullDecode() throws {
        let path = try Self.threeHourFile()
        let head = try #require(FileManager.default.contents(atPath: path)?.prefix(1024))
        #expect(head.range(of: Data("Xing".utf8)) == nil && head.range(of: Data("Info".utf8)) == nil,
                "the fixture must have no Xing/Info frame")
        let probe = try Decoders.open(path: path)
        try probe.scan()
        let total = try #require(probe.lengthInFrames)
        probe.close()
        // 180 times a minute and its encoder delay and padding (about 30 ms a join).
        #expect(abs(Double(total) / 44100 - 10800) < 180 * 0.05, "\(total) frames")

        // 20 seeded points, plus the last window of the file and both sides of a join.
        let join = total / 180 * 97
        var generator = SeededGenerator(seed: 0x5EEC)
        var points = (0..<20).map { _ in Int.random(in: 0..<(total - Self.windowFrames), using: &generator) }
        points += [total - Self.windowFrames, total - 1152 * 7 - 13, join - 1000, join + 529, 0, 1]

        // The oracle streams on another thread while the decoder's own full decode runs here.
        let oracle = OracleWindows(path: path, starts: points, length: Self.windowFrames)
        oracle.start()
        var sequential = WindowCollector(starts: points, length: Self.windowFrames)
        let decoder = try Decoders.open(path: path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536 * 2, alignment: 16)
        defer { buffer.deallocate() }
        while case .frames(let frames) = try decoder.read(into: buffer), frames > 0 {
            sequential.consume(UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: Int16.self), count: frames))
        }
        #expect(sequential.framesSeen == total)
        let oracleWindows = try oracle.wait()

        // One decoder seeks to every point in random order (backwards too), as a player does.
        let seeker = try Decoders.open(path: path)
        var failures: [String] = []
        for (index, point) in points.enumerated() {
            try seeker.seek(toFrame: point)
            let got = try Self.readWindow(seeker)
            if got != sequential.windows[index] {
                failures.append("seek to \(point): differs from the full decode at \(Self.firstDifference(got, sequential.windows[index]))")
            }
            if got != oracleWindows[index] {
                failures.append("seek to \(point): differs from mpg123 at \(Self.firstDifference(got, oracleWindows[index]))")
            }
        }
        // A fresh decoder's first seek (no frame index yet) is exact too.
        let fresh = try Decoders.open(path: path)
        try fresh.seek(toFrame: points[0])
        if try Self.readWindow(fresh) != sequential.windows[0] { failures.append("first seek of a fresh decoder differs") }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// The same guarantee where libmpg123 trims encoder delay and padding (a LAME
    /// info frame), in stereo: the preframe count must follow the MPEG frame
    /// number, not the output frame.
    @Test func seeksInGaplessStereoFileMatchFullDecode() throws {
        let path = try Fixtures.mp3(.sweep, seconds: 20, encoding: .vbr(quality: 4))
        let decoded = try WAVFile.read(Fixtures.decodedByMPG123(path))
        var generator = SeededGenerator(seed: 0x6A91)
        var points = (0..<30).map { _ in Int.random(in: 0..<(decoded.frameCount - Self.windowFrames), using: &generator) }
        points += [0, 1, 575, 1152, decoded.frameCount - Self.windowFrames]
        let seeker = try Decoders.open(path: path)
        var failures: [String] = []
        for point in points {
            try seeker.seek(toFrame: point)
            let got = try Self.readWindow(seeker)
            let expected = Array(decoded.samples[(point * 2)..<((point + Self.windowFrames) * 2)])
            if got != expected { failures.append("\(point): \(Self.firstDifference(got, expected))") }
        }
        #expect(failures.isEmpty, "seeks that differ from mpg123's decode: \(failures)")
    }

    static func readWindow(_ decoder: any Decoder) throws -> [Int16] {
        let channels = decoder.format.channels
        var samples = [Int16](repeating: 0, count: windowFrames * channels)
        var filled = 0
        try samples.withUnsafeMutableBytes { raw in
            while filled < windowFrames {
                let region = UnsafeMutableRawBufferPointer(rebasing: raw[(filled * channels * 2)...])
                guard case .frames(let frames) = try decoder.read(into: region), frames > 0 else { break }
                filled += frames
            }
        }
        return Array(samples[0..<(filled * channels)])
    }

    static func firstDifference(_ a: [Int16], _ b: [Int16]) -> String {
        if a.count != b.count { return "length \(a.count) vs \(b.count)" }
        guard let index = a.indices.first(where: { a[$0] != b[$0] }) else { return "nowhere" }
        return "sample \(index) (\(a[index]) vs \(b[index]))"
    }
}

/// Keeps only the windows `[start, start + length)` of a mono stream fed in chunks,
/// so a 3-hour decode never sits in memory.
struct WindowCollector {
    let starts: [Int]
    let length: Int
    var windows: [[Int16]]
    var framesSeen = 0

    init(starts: [Int], length: Int) {
        self.starts = starts
        self.length = length
        windows = Array(repeating: [], count: starts.count)
    }

    mutating func consume(_ chunk: UnsafeBufferPointer<Int16>) {
        let chunkStart = framesSeen
        let chunkEnd = framesSeen + chunk.count
        for (index, start) in starts.enumerated() {
            let from = max(start, chunkStart)
            let to = min(start + length, chunkEnd)
            if from < to { windows[index] += chunk[(from - chunkStart)..<(to - chunkStart)] }
        }
        framesSeen = chunkEnd
    }
}

/// `mpg123 -s` (raw samples on stdout) over the whole file, read on a thread of its own.
final class OracleWindows: @unchecked Sendable {
    // @unchecked: `collector` and `failure` are written by the reading thread only
    // before `done` is signalled, and read only after `wait()` returned.
    private let process = Process()
    private let pipe = Pipe()
    private var collector: WindowCollector
    private var failure: String?
    private let done = DispatchSemaphore(value: 0)

    init(path: String, starts: [Int], length: Int) {
        collector = WindowCollector(starts: starts, length: length)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mpg123")
        process.arguments = ["-q", "-s", "--mono", path]
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
    }

    func start() {
        do { try process.run() } catch {
            failure = "mpg123 did not start: \(error)"
            done.signal()
            return
        }
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            var carry: [UInt8] = []
            while let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty {
                carry += data
                let whole = carry.count / 2 * 2
                carry.withUnsafeBytes { raw in
                    collector.consume(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: Int16.self), count: whole / 2))
                }
                carry.removeFirst(whole)
            }
            process.waitUntilExit()
            if process.terminationStatus != 0 { failure = "mpg123 exited with \(process.terminationStatus)" }
            done.signal()
        }
    }

    func wait() throws -> [[Int16]] {
        done.wait()
        if let failure { throw ProcessError.notReady(failure) }
        return collector.windows
    }
}
