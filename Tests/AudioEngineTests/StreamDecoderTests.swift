import AudioDecoding
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A station's decoder through `Decoders.open`, against a real
/// loopback HTTP server: `read` never waits for the network (it says
/// `.notYet`, and the reader's eventfd says when to ask again), the samples
/// are the `ffmpeg` program's decode of the same URL, and a seek back within
/// what was handed out (a pause's resume) gives those frames again.
@Suite(.serialized) struct StreamDecoderTests {
    static func servedSweep(seconds: Double = 4) throws -> (StreamFileServer, String) {
        let folder = ScratchFiles.makeDirectory("stream-decoder")
        try FileManager.default.copyItem(atPath: Fixtures.mp3(.sweep, seconds: seconds), toPath: "\(folder)/sweep.mp3")
        let server = try StreamFileServer.start(root: folder)
        return (server, server.url("sweep.mp3"))
    }

    /// Reads until `.end` (or `limit` frames), waiting on the stream's descriptor whenever it says `.notYet`.
    static func readAll(_ decoder: any Decoder, limit: Int = .max) throws -> [Int16] {
        let stream = try #require(decoder as? any LiveStream)
        let channels = decoder.format.channels
        var samples: [Int16] = []
        var buffer = [Int16](repeating: 0, count: 4096 * channels)
        var waits = 0
        while samples.count / channels < limit {
            let result = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) }
            switch result {
            case .frames(let frames):
                samples += buffer[0..<min(frames, limit - samples.count / channels) * channels]
            case .end:
                return samples
            case .notYet:
                #expect(stream.isAwaitingData)
                var wake = pollfd(fd: stream.wakeDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&wake, 1, 10_000)
                waits += 1
                // A stream that never wakes it would spin here: bounded, so the test fails instead.
                try #require(waits < 100_000)
            }
        }
        return samples
    }

    @Test("the first read says notYet, not end, while the server has sent nothing")
    func theFirstReadDoesNotWaitForTheNetwork() throws {
        let (server, _) = try Self.servedSweep()
        defer { server.stop() }
        // The port that accepts and never answers: nothing can have arrived.
        let decoder = try Decoders.open(path: server.silentURL("sweep.mp3"))
        defer { decoder.close() }
        var buffer = [Int16](repeating: 0, count: 4096 * 2)
        let result = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) }
        #expect(result == .notYet)
        let stream = try #require(decoder as? any LiveStream)
        #expect(stream.isAwaitingData && stream.wakeDescriptor >= 0)
        #expect(decoder.format == AudioFormat(rate: 44100, channels: 2))
    }

    @Test("an MP3 over HTTP decodes sample for sample as the ffmpeg program decodes the same URL, and ends at its end")
    func decodesAsFFmpegDoes() throws {
        let (server, url) = try Self.servedSweep()
        defer { server.stop() }
        let decoder = try Decoders.open(path: url)
        defer { decoder.close() }
        let ours = try Self.readAll(decoder)
        let reference = try ProcessRunner.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url, "-f", "s16le", "-ac", "2", "-ar", "44100", "-"],
                                              timeout: 60)
        #expect(reference.succeeded, "\(reference.summary)")
        let expected = reference.stdout.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(ours.count == expected.count, "ours \(ours.count) samples, ffmpeg's \(expected.count)")
        let first = zip(ours, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(first == nil, "first difference at sample \(first ?? -1)")
    }

    /// An episode served over HTTP: a seek outside what was kept
    /// is a new connection from a range; the frames dropped before the target
    /// by the first packet's timestamp make the place the frame asked for. A
    /// decode from the start gives the same samples there, once the MP3
    /// decoder's state is rebuilt (its overlap and bit reservoir: the first
    /// three MP3 frames after the cut).
    @Test("a file served over HTTP seeks ahead and back by range requests, to the frame a decode from the start gives there")
    func aServedFileSeeksAnywhere() throws {
        let (server, url) = try Self.servedSweep(seconds: 8)
        defer { server.stop() }
        let straight = try Decoders.open(path: url)
        defer { straight.close() }
        let whole = try Self.readAll(straight)
        let decoder = try Decoders.open(path: url)
        defer { decoder.close() }
        let channels = decoder.format.channels
        _ = try Self.readAll(decoder, limit: 4410)
        let length = try #require(decoder.lengthInFrames)
        #expect(abs(length - whole.count / channels) < 4410, "length \(length), decoded \(whole.count / channels)")
        let settle = 3 * 1152
        for target in [220_500, 44_100 + 17, 300_000] {
            try decoder.seek(toFrame: target)
            let after = try Self.readAll(decoder, limit: 22_050)
            try #require(after.count == 22_050 * channels)
            let expected = Array(whole[((target + settle) * channels)..<((target + 22_050) * channels)])
            let got = Array(after[(settle * channels)...])
            let first = zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(first == nil, "seek to \(target): first difference at sample \(first ?? -1)")
        }
        #expect(throws: DecoderError.self) { try decoder.seek(toFrame: length + 44_100) }
    }

    @Test("a seek back within the kept seconds serves the same frames again, then goes on live; past the end is refused")
    func aSeekBackReplaysWhatWasHandedOut() throws {
        let (server, url) = try Self.servedSweep(seconds: 6)
        defer { server.stop() }
        let decoder = try Decoders.open(path: url)
        defer { decoder.close() }
        let channels = decoder.format.channels
        let heard = try Self.readAll(decoder, limit: 88_200)
        try #require(heard.count == 88_200 * channels)
        // As a pause's resume does: back to where the listener stopped hearing, half a second behind.
        try decoder.seek(toFrame: 66_150)
        let again = try Self.readAll(decoder, limit: 44_100)
        let split = 22_050 * channels
        let replayed = Array(again[0..<split]), before = Array(heard[(66_150 * channels)...])
        #expect(replayed == before)
        // And the frames after it are those a decode without the seek gives there.
        let straight = try Decoders.open(path: url)
        defer { straight.close() }
        let whole = try Self.readAll(straight, limit: 110_250)
        let live = Array(again[split...]), continued = Array(whole[(88_200 * channels)...])
        #expect(live == continued)
        #expect(throws: DecoderError.self) { try decoder.seek(toFrame: 1_000_000) }
    }
}
