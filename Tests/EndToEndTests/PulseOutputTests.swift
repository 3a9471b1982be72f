import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The native PulseAudio output (`--device pulse`, `PulseOutput`) as the
/// listener meets it: one stream for the player's whole run, and every pause
/// heard as the music and then its fade, never a block of silence between.
/// Through ALSA's plugin (`alsa:pulse`) each pause's prepare made a new stream
/// and the null sink sometimes played a 25-50 ms block of silence before the
/// fade.
@Suite(.serialized) struct PulseOutputTests {
    static let rate = 44100

    /// `interlude play` on its own null sink, commands through a FIFO on its standard input.
    final class Player {
        let sink: NullSink
        let process: BackgroundProcess
        /// The player's private XDG_RUNTIME_DIR, where its control socket is.
        let runtime: String
        private let commands: Int32

        init(_ arguments: [String], sink: NullSink, environment extra: [String: String] = [:]) throws {
            self.sink = sink
            let fifo = ScratchFiles.makeDirectory("pulse-output-commands") + "/commands"
            #expect(mkfifo(fifo, 0o600) == 0)
            commands = open(fifo, O_RDWR)
            runtime = ScratchFiles.makeDirectory("pulse-output-runtime")
            chmod(runtime, 0o700)
            var environment = sink.environment
            environment["XDG_RUNTIME_DIR"] = runtime
            for (key, value) in extra { environment[key] = value }
            process = try InterludeBinary.start(["play"] + arguments + ["--events", "json"],
                                                environment: environment, stdinPath: fifo)
        }

        /// `interlude remote ARGUMENTS...` to this player.
        func remote(_ arguments: [String]) throws -> ProcessResult {
            try ProcessRunner.run(InterludeBinary.path(), ["remote"] + arguments,
                                  environment: ["XDG_RUNTIME_DIR": runtime], timeout: 15)
        }

        deinit {
            _ = process.stop(signal: SIGKILL, grace: 1)
            close(commands)
        }

        func type(_ command: String) {
            _ = (command + "\n").withCString { write(commands, $0, strlen($0)) }
        }

        /// Waits until `name` has been printed more than `count` times.
        @discardableResult
        func waitFor(_ name: String, moreThan count: Int = 0, timeout: Double = 10) -> Bool {
            process.waitForEvent(timeout: timeout) { _ in self.process.eventsSoFar().named(name).count > count } != nil
        }

        func count(_ name: String) -> Int { process.eventsSoFar().named(name).count }

        /// The indices of the sink inputs on the player's sink (`pactl list short sink-inputs`).
        func sinkInputs() throws -> [Int] {
            let sinks = try sink.server.pactl(["list", "short", "sinks"]).stdoutText
            guard let index = sinks.split(separator: "\n")
                .first(where: { $0.split(separator: "\t").dropFirst().first == Substring(sink.name) })?
                .split(separator: "\t").first else { return [] }
            let inputs = try sink.server.pactl(["list", "short", "sink-inputs"]).stdoutText
            return inputs.split(separator: "\n").filter { $0.split(separator: "\t").dropFirst().first == index }
                .compactMap { Int($0.split(separator: "\t")[0]) }
        }
    }

    @Test("the player's sink input keeps its index across a pause, a play, an alarm and a seek: one stream for the whole run")
    func theSinkInputKeepsItsIndexAcrossPausePlayAlarmAndSeek() throws {
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 60)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let player = try Player([music, "--device", "pulse", "--alarm-in", "4s"], sink: sink)
        #expect(player.waitFor("trackStarted"))
        usleep(500_000)
        let first = try player.sinkInputs()
        try #require(first.count == 1, "the player's streams on its sink: \(first)")
        var seen: [String] = ["start: \(first)"]
        func look(_ step: String) throws {
            // A few looks per step: a stream made again would show as a new index, or as none for a moment.
            for _ in 0..<3 {
                seen.append("\(step): \(try player.sinkInputs())")
                usleep(100_000)
            }
        }
        player.type("pause")
        #expect(player.waitFor("paused"))
        try look("paused")
        player.type("play")
        #expect(player.waitFor("resumed"))
        try look("played")
        // The alarm (4 s after the start) pauses the music and sounds through the same stream.
        #expect(player.waitFor("paused", moreThan: 1, timeout: 10), "\(player.process.eventsSoFar().events)")
        try look("alarm")
        player.type("dismiss")
        #expect(player.waitFor("resumed", moreThan: 1))
        try look("dismissed")
        let seek = try player.remote(["seek", "+20"])
        #expect(seek.succeeded, "\(seek.summary)")
        // A seek while playing fades out, drops what the server holds, and fades in further on.
        #expect(player.waitFor("jump"), "\(player.process.eventsSoFar().events)")
        try look("seeked")
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")
        let changed = seen.filter { !$0.hasSuffix(": \(first)") }
        #expect(changed.isEmpty, "the sink input changed: \(seen.joined(separator: "; "))")
    }

    @Test("a stream that runs dry is reported as an underrun, as an ALSA xrun is (the player stopped for a second, then continued)",
          arguments: ["pulse", "alsa:pulse"])
    func aStreamThatRunsDryIsReportedAsAnUnderrun(device: String) throws {
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 60)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        defer { _ = try? recorder.stop() }
        let player = try Player([music, "--device", device], sink: sink)
        #expect(player.waitFor("trackStarted"))
        usleep(1_000_000)
        #expect(player.count("underrun") == 0, "\(player.process.eventsSoFar().named("underrun"))")
        // Every thread of the player stopped for a second, three times its 300 ms buffer:
        // the server plays out what it holds and the stream runs dry.
        kill(player.process.pid, SIGSTOP)
        usleep(1_000_000)
        kill(player.process.pid, SIGCONT)
        #expect(player.waitFor("underrun"), "\(player.process.eventsSoFar().events)")
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")
    }

    @Test("the sink takes at most 5 ms of the stream ahead, at any --latency: a pause on a sink that cannot rewind lands within that",
          arguments: ["30", "300", "2000"])
    func theSinkTakesAtMostFiveMillisecondsAhead(latency: String) throws {
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 20)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let player = try Player([music, "--device", "pulse", "--latency", latency], sink: sink)
        #expect(player.waitFor("trackStarted"))
        usleep(300_000)
        // `pactl list sinks`: "Name: NAME" ... "Latency: 1234 usec, configured 5000 usec" for each sink.
        let listing = try sink.server.pactl(["list", "sinks"]).stdoutText
        let section = listing.components(separatedBy: "Sink #").first { $0.contains("Name: \(sink.name)\n") } ?? ""
        let line = section.split(separator: "\n").first { $0.contains("configured") } ?? ""
        let configured = line.split(separator: " ").firstIndex(of: "configured").flatMap { index in
            Int(line.split(separator: " ")[line.split(separator: " ").index(after: index)])
        }
        #expect(configured.map { $0 > 0 && $0 <= 5000 } == true, "--latency \(latency): \(line)")
        player.type("quit")
        #expect(player.process.wait(timeout: 10).succeeded)
    }

    @Test("half a minute of steady playback at the default latency never lets the server's queue run dry")
    func steadyPlaybackNeverRunsDry() throws {
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 60)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        // The server asks for 145 ms at a time and plays on with the other 150 ms
        // queued; `mix` stops at the media ring's end, so most requests are written
        // in two pieces. Writing whole periods only left the short piece unwritten,
        // and the queue 5-10 ms from empty: 2-4 underruns in 30 s.
        let player = try Player([music, "--device", "pulse"], sink: sink)
        #expect(player.waitFor("trackStarted"))
        usleep(30_000_000)
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")
        let log = EventLog(stdout: result.stdoutText)
        #expect(log.underrunCount == 0, "\(log.named("underrun"))")
    }

    @Test("thirty pauses in a row are each heard as the music, then its fade, with no silence between the two; the stream never stops")
    func thirtyPausesAreEachHeardAsMusicThenFadeWithNoSilenceBefore() throws {
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 60, sampleRate: Self.rate, channels: 2,
                                     encoding: .cbr(kbps: 128))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let player = try Player([music, "--device", "pulse", "--fade", "30ms"], sink: sink)
        #expect(player.waitFor("trackStarted"))
        let pauses = 30
        for round in 0..<pauses {
            // Unrelated phases of the sink's blocks: 450 ms plus a prime number of milliseconds.
            usleep(UInt32(450_000 + (round * 7919) % 50_000))
            player.type("pause")
            #expect(player.waitFor("paused", moreThan: round), "round \(round)")
            usleep(250_000)
            player.type("play")
            #expect(player.waitFor("resumed", moreThan: round), "round \(round)")
        }
        usleep(600_000)
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        usleep(200_000)
        let capture = try recorder.stop()
        #expect(result.succeeded, "\(result.summary)")
        let log = EventLog(stdout: result.stdoutText)
        #expect(log.underrunCount == 0, "\(log.named("underrun"))")

        let stretches = Self.soundStretches(capture)
        let full = Self.peak(capture, 0..<capture.frameCount)
        // The first stretch is the music up to the first pause, the last one after the last resume.
        try #require(stretches.count >= 2, "\(stretches)")
        let silences = zip(stretches, stretches.dropFirst()).map { $1.lowerBound - $0.upperBound }
        let short = silences.enumerated().filter { $0.element < Self.rate / 10 }
        let described = short.map { "#\($0.offset): \($0.element * 1000 / Self.rate)" }.joined(separator: ", ")
        #expect(short.isEmpty, "silences shorter than a pause (ms), each a gap in the music or before a fade: \(described)")
        #expect(silences.count == pauses, "\(silences.count) silences for \(pauses) pauses: \(silences.map { $0 * 1000 / Self.rate }) ms")
        // Every stretch that ends in a pause ends with its fade after full-level music.
        for (index, stretch) in stretches.dropLast().enumerated() {
            #expect(stretch.count > Self.rate / 5, "stretch \(index) lasts \(stretch.count * 1000 / Self.rate) ms")
            let music = Self.peak(capture, (stretch.upperBound - Self.rate * 80 / 1000)..<(stretch.upperBound - Self.rate * 50 / 1000))
            let fadeEnd = Self.peak(capture, (stretch.upperBound - Self.rate * 8 / 1000)..<stretch.upperBound)
            #expect(music > full * 9 / 10 && fadeEnd < music / 2,
                    "stretch \(index): peak \(music) 80-50 ms before its end, \(fadeEnd) in its last 8 ms")
        }
    }

    /// The stretches of sound (not digital silence, judged in 2.5 ms windows) in `audio`.
    static func soundStretches(_ audio: PCMAudio) -> [Range<Int>] {
        let window = rate / 400
        var stretches: [Range<Int>] = []
        var start: Int?
        var frame = 0
        while frame + window <= audio.frameCount {
            let silent = peak(audio, frame..<(frame + window)) == 0
            if !silent && start == nil { start = frame }
            if silent, let begun = start {
                stretches.append(begun..<frame)
                start = nil
            }
            frame += window
        }
        if let start { stretches.append(start..<frame) }
        return stretches
    }

    static func peak(_ audio: PCMAudio, _ frames: Range<Int>) -> Int {
        let lower = max(0, frames.lowerBound) * audio.channels
        let upper = min(audio.frameCount, frames.upperBound) * audio.channels
        guard lower < upper else { return 0 }
        return audio.samples[lower..<upper].reduce(0) { max($0, abs(Int($1))) }
    }
}

/// `--device default` (and no `--device`): the native output when a PulseAudio
/// server answers, ALSA's default device when none does.
@Suite(.serialized) struct DefaultDeviceTests {
    @Test("with a server running, the default device is the native output: its stream carries the player's own properties")
    func theDefaultDeviceIsTheNativeOutputWhenAServerAnswers() throws {
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 20)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let player = try PulseOutputTests.Player([music], sink: sink)
        #expect(player.waitFor("trackStarted"))
        usleep(500_000)
        let inputs = try sink.server.pactl(["list", "sink-inputs"]).stdoutText
        #expect(try player.sinkInputs().count == 1, "\(inputs)")
        // Set by PulseOutput; ALSA's plugin names its stream "ALSA Playback" and sets no role.
        #expect(inputs.contains("application.id = \"interlude\"") && inputs.contains("media.role = \"music\""), "\(inputs)")
        player.type("quit")
        #expect(player.process.wait(timeout: 10).succeeded)
    }

    @Test("with no server answering, the default device is ALSA's default: its error, not the sound server's")
    func theDefaultDeviceIsAlsasWhenNoServerAnswers() throws {
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 2)
        let (_, environment) = try NoSoundCardTests.absentServer()
        let result = try InterludeBinary.play([music], output: .device("default"), environment: environment, timeout: 30)
        let stderr = result.process.stderrText
        // No sound card on the test machine, and ALSA's pulse plugin finds no server either.
        if result.process.exitStatus != 0 {
            #expect(stderr.contains("audio device 'default': open failed"), "\(stderr)")
            #expect(!stderr.contains("connect failed"), "\(stderr)")
        } else {
            #expect(result.events.named("trackStarted").count == 1, "\(result.process.summary)")
        }
    }
}

/// The native stream's `media.role`: `music`, and `audiobook` while a book plays.
@Suite(.serialized) struct StreamRoleTests {
    @Test("a book's stream has media.role audiobook; music's has music")
    func aBooksStreamSaysAudiobook() throws {
        let book = try BookUnderTest.folder("Role Book", files: 1, seconds: 20)
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 20)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        for (path, role) in [(book.path, "audiobook"), (music, "music")] {
            let player = try PulseOutputTests.Player([path, "--device", "pulse"], sink: sink, environment: book.environment)
            #expect(player.waitFor("trackStarted"))
            usleep(300_000)
            let inputs = try sink.server.pactl(["list", "sink-inputs"]).stdoutText
            #expect(inputs.contains("media.role = \"\(role)\""), "\(path): \(inputs)")
            player.type("quit")
            #expect(player.process.wait(timeout: 10).succeeded)
        }
    }
}
