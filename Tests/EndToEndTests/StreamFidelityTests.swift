import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What the null sink plays is the reference decode
/// of what the server sent, without gaps, for each source and codec: Icecast
/// over HTTP with MP3, AAC and Opus mounts, a file over HTTPS, and live HLS.
///
/// The reference is `ffmpeg` decoding the same bytes: for a live source a
/// second listener connected beside the player for the whole capture, for the
/// HTTPS file the file itself, converted to the sink's format (44.1 kHz
/// stereo) as the player converts (libswresample). The signal is the sweep
/// fixture, where every instant differs from every other, so one lag aligns
/// the capture; then every 250 ms window of what was heard must match the
/// reference at that same lag. A gap, a repeat or a skipped packet moves what
/// follows by its length and its windows stop matching (at the sweep's
/// frequencies a shift of 1 ms is far out of phase).
@Suite(.serialized) struct StreamFidelityTests {
    enum Source: String, CaseIterable, CustomTestStringConvertible {
        case icecastMP3, icecastAAC, icecastOpus, httpsFile, liveHLS
        var testDescription: String { rawValue }
    }

    static let sampleRate = 44100
    static let windowFrames = sampleRate / 4

    /// `ffmpeg -i INPUT` decoded to 44.1 kHz stereo s16 (for a live input,
    /// `seconds` of it from when it connects).
    static func reference(_ input: String, seconds: Int? = nil) throws -> (process: BackgroundProcess, output: String) {
        let output = ScratchFiles.makeDirectory("stream-reference") + "/reference.raw"
        return (try BackgroundProcess.start(
            "ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", input] + (seconds.map { ["-t", String($0)] } ?? [])
                + ["-ar", String(sampleRate), "-ac", "2", "-f", "s16le", output],
            stdout: .discard, stderr: .capture), output)
    }

    static func readRaw(_ path: String) throws -> PCMAudio {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var samples = [Int16](repeating: 0, count: data.count / 2)
        _ = samples.withUnsafeMutableBytes { data.copyBytes(to: $0) }
        return PCMAudio(sampleRate: sampleRate, channels: 2, samples: samples.map { Int16(littleEndian: $0) })
    }

    static func slice(_ audio: PCMAudio, _ frames: Range<Int>) -> PCMAudio {
        PCMAudio(sampleRate: audio.sampleRate, channels: audio.channels,
                 samples: Array(audio.samples[(frames.lowerBound * audio.channels)..<(frames.upperBound * audio.channels)]))
    }

    @Test("each source plays through the null sink as the reference decode of what the server sent, without gaps",
          arguments: Source.allCases)
    func theCaptureIsTheReferenceDecodeWithoutGaps(source: Source) throws {
        let wav = try Fixtures.wav(.sweep, seconds: 40)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        var environment: [String: String] = [:]
        var stops: [() -> Void] = []
        defer { for stop in stops.reversed() { stop() } }
        let url: String
        var referenceFile: String?
        switch source {
        case .icecastMP3, .icecastAAC, .icecastOpus:
            let server = try IcecastServer.start()
            stops.append { server.stop() }
            let format: IcecastServer.SourceFormat = source == .icecastMP3 ? .mp3 : source == .icecastAAC ? .aac : .opus
            let mount = "radio.\(format)"
            try server.startSource(mount: mount, wav: wav, format: format)
            url = server.url(mount)
        case .httpsFile:
            let certificates = try TestCertificates.make()
            let folder = ScratchFiles.makeDirectory("stream-fidelity")
            referenceFile = folder + "/sweep.mp3"
            try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-i", wav, "-t", "12", "-c:a", "libmp3lame", "-b:a", "128k",
                                               referenceFile!])
            let server = try StreamFileServer.start(root: folder, certificate: certificates.trusted)
            stops.append { server.stop() }
            environment = certificates.environment
            url = server.url("sweep.mp3")
        case .liveHLS:
            let live = try LiveHLS.start(wav: wav)
            stops.append { live.stop() }
            url = live.playlistURL
        }

        // The second listener, connected first and staying past the player's end.
        let (listener, referencePath) = try Self.reference(referenceFile ?? url, seconds: referenceFile == nil ? 20 : nil)
        stops.append { _ = listener.stop() }
        if referenceFile == nil {
            let receiving = Remote.waitUntil(10) {
                ((try? FileManager.default.attributesOfItem(atPath: referencePath))?[.size] as? Int ?? 0) > 0
            }
            #expect(receiving, "the reference listener got nothing")
        }
        let recorder = try sink.startRecorder()
        defer { _ = try? recorder.stop() }
        let player = try PulseOutputTests.Player([url, "--device", "pulse"], sink: sink, environment: environment)
        #expect(player.waitFor("streamConnected", timeout: 30), "\(player.process.eventsSoFar().events)")
        #expect(player.waitFor("trackStarted", timeout: 30), "\(player.process.eventsSoFar().events)")
        // Seconds of it heard: the heard position passes 8 s.
        let heardEnough = Remote.waitUntil(40) {
            ((try? player.remote(["status", "--json"]).stdoutText).flatMap { Self.elapsed(in: $0) } ?? 0) > 8
        }
        #expect(heardEnough, "\(player.process.eventsSoFar().events)")
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")
        let heard = try recorder.stop()
        let finished = listener.wait(timeout: 40)
        #expect(finished.succeeded, "the reference listener: \(finished.summary)")
        let reference = try Self.readRaw(referencePath)
        let problems = player.process.eventsSoFar().named("error") + player.process.eventsSoFar().named("underrun")
        #expect(problems.isEmpty, "\(problems)")

        // What was heard, without the fade-in and the quit's fade at its ends.
        let sounding = try #require(SignalAnalysis.signalBounds(heard, threshold: 64), "silence captured")
        let trimmed = (sounding.lowerBound + Self.sampleRate / 2)..<(sounding.upperBound - Self.sampleRate / 2)
        #expect(trimmed.count >= 6 * Self.sampleRate, "only \(trimmed.count) frames heard")
        guard trimmed.count >= 2 * Self.windowFrames else { return }
        let check = Self.continuation(of: reference, heard: Self.slice(heard, trimmed))
        #expect(check.alignment.correlation > 0.95, "no alignment with the reference: \(check.alignment)")
        #expect(check.mismatched.isEmpty, "windows that do not continue the reference at lag \(check.alignment.lag): \(check.mismatched)")
    }

    /// One lag for the whole of `heard` against `reference`, and the 250 ms
    /// windows of `heard` that do not match the reference at that lag.
    static func continuation(of reference: PCMAudio, heard: PCMAudio) -> (alignment: Alignment, mismatched: [String]) {
        let alignment = SignalAnalysis.align(reference: reference, signal: heard, minimumOverlap: 0.9)
        var mismatched: [String] = []
        var start = 0
        while start + windowFrames <= heard.frameCount {
            let window = slice(heard, start..<(start + windowFrames))
            let value = SignalAnalysis.correlation(reference: reference, signal: window, lag: alignment.lag - start)
            if value < 0.95 { mismatched.append("\(Double(start) / Double(sampleRate)) s: \(value)") }
            start += windowFrames
        }
        return (alignment, mismatched)
    }

    /// The check itself, on the fixture with no server: the sweep heard as it
    /// is continues its reference; 10 ms of it left out (a lost packet), or
    /// 10 ms of silence put in (a gap), does not, from that window on.
    @Test("the continuation check finds 10 ms left out or put in")
    func theContinuationCheckFindsAGap() throws {
        let reference = try WAVFile.read(Fixtures.resampled(Fixtures.wav(.sweep, seconds: 12), sampleRate: Self.sampleRate, channels: 2))
        let heard = Self.slice(reference, (2 * Self.sampleRate)..<(10 * Self.sampleRate))
        #expect(Self.continuation(of: reference, heard: heard).mismatched.isEmpty)
        let cut = 4 * Self.sampleRate, gap = Self.sampleRate / 100
        var skipped = heard
        skipped.samples.removeSubrange((cut * 2)..<((cut + gap) * 2))
        var silenced = heard
        silenced.samples.insert(contentsOf: [Int16](repeating: 0, count: gap * 2), at: cut * 2)
        for damaged in [skipped, silenced] {
            let check = Self.continuation(of: reference, heard: damaged)
            #expect(check.alignment.correlation > 0.4, "\(check.alignment)")
            // At least the windows on one side of the damage do not match at the one lag.
            #expect(check.mismatched.count >= 8, "\(check.mismatched)")
        }
    }

    static func elapsed(in json: String) -> Double? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return nil }
        return object["elapsed"] as? Double
    }
}
