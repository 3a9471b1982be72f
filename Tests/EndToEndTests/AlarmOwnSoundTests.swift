import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The alarm's own media rings as the alarm
/// voice, through the private PulseAudio server's null sink, captured with
/// parec. Music (the sweep) plays first, so the capture has a timeline: the
/// alarm's due time as the player reports it (`pauseRequested`'s position,
/// the media frame when it fell due) is a frame of the capture once the
/// music is aligned with its source, and every measure below counts from
/// there in the capture's own samples, never by the test's wall clock. Each
/// sound is a tone of its own frequency, told apart from the built-in tone's
/// 880 Hz by its amplitude at that frequency (Goertzel, on exact bins).
@Suite(.serialized) struct AlarmOwnSoundTests {
    static let rate = 44100
    static let builtInTone = 880.0

    struct Rang {
        let events: EventLog
        let capture: PCMAudio
        /// The capture frame the listener was at when the alarm fell due.
        let due: Int
        let stateHome: String

        func amplitude(at frequency: Double, seconds: ClosedRange<Double>) -> Double {
            ToneMeter.amplitude(capture, frames: frame(seconds.lowerBound)..<frame(seconds.upperBound), frequency: frequency)
        }

        /// The capture frame `seconds` after the due time.
        func frame(_ seconds: Double) -> Int { due + Int((seconds * Double(AlarmOwnSoundTests.rate)).rounded()) }

        /// Seconds after the due time of the first 50 ms of the built-in tone.
        var toneOnset: Double? {
            let window = AlarmOwnSoundTests.rate / 20
            var start = due
            while start + window <= capture.frameCount {
                if ToneMeter.amplitude(capture, frames: start..<(start + window), frequency: AlarmOwnSoundTests.builtInTone) > 0.1 {
                    return Double(start - due) / Double(AlarmOwnSoundTests.rate)
                }
                start += window / 2
            }
            return nil
        }

        var fallbacks: [InterludeEvent] { events.named("alarmSoundFallback") }
    }

    /// `interlude play` of the sweep with an alarm after `alarmIn` s ringing
    /// `ring` s with `--alarm-sound sound`; `during` runs while it plays.
    func ring(_ sound: String, alarmIn: Double = 5, ring: Double = 5, extra: [String] = [], stateHome: String? = nil,
              during: ((BackgroundProcess) throws -> Void)? = nil) throws -> Rang {
        let music = try Fixtures.mp3(.sweep, seconds: alarmIn + 3, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(music))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let state = stateHome ?? ScratchFiles.makeDirectory("alarm-sound-state")
        let runtime = ScratchFiles.makeDirectory("alarm-sound-runtime")
        chmod(runtime, 0o700)
        var environment = sink.environment
        environment["XDG_STATE_HOME"] = state
        environment["XDG_DATA_HOME"] = state + "/data"
        environment["XDG_CONFIG_HOME"] = ScratchFiles.makeDirectory("alarm-sound-config")
        environment["XDG_RUNTIME_DIR"] = runtime
        let recorder = try sink.startRecorder()
        let process = try InterludeBinary.start(
            ["play", music, "--device", "pulse", "--events", "json", "--alarm-in", String(alarmIn), "--alarm-ring", String(ring),
             "--alarm-sound", sound] + extra, environment: environment)
        try during?(process)
        let result = process.wait(timeout: 120)
        let capture = try recorder.stop()
        #expect(result.succeeded, "\(result.summary)")
        let events = EventLog(stdout: result.stdoutText)
        #expect(events.underrunCount == 0, "underruns shift the capture: \(events.named("underrun"))")
        let due = try #require(events.named("pauseRequested").first?.number("position"), "\(events.events)")
        let head = SignalAnalysis.align(reference: source.frames(0..<Self.rate * 2),
                                        signal: capture.frames(0..<min(capture.frameCount, Int(alarmIn * Double(Self.rate)))),
                                        minimumOverlap: 0.99)
        #expect(head.correlation > 0.99, "\(head)")
        return Rang(events: events, capture: capture, due: head.lag + Int((due * Double(Self.rate)).rounded()), stateHome: state)
    }

    /// A tone file of its own, copied out of the fixtures' cache (a test may remove it).
    static func tone(_ frequency: Double, seconds: Double, in folder: String, named name: String) throws -> String {
        let path = folder + "/" + name
        try FileManager.default.copyItem(atPath: try Fixtures.mp3(.tone(frequency: frequency), seconds: seconds), toPath: path)
        return path
    }

    /// The sound is there a second into the ringing, and the built-in tone is not.
    func expectRings(_ rang: Rang, _ frequency: Double, seconds: ClosedRange<Double> = 0.5...1.5, _ what: String) {
        let heard = rang.amplitude(at: frequency, seconds: seconds)
        let tone = rang.amplitude(at: Self.builtInTone, seconds: seconds)
        #expect(heard > 0.2 && tone < 0.02, "\(what): \(frequency) Hz at \(heard), the built-in tone at \(tone), \(rang.fallbacks)")
    }

    @Test func aFileRingsAsTheAlarm() throws {
        let folder = ScratchFiles.makeDirectory("alarm-sound-file")
        let rang = try ring(try Self.tone(520, seconds: 10, in: folder, named: "wake.mp3"))
        expectRings(rang, 520, "the file")
        #expect(rang.fallbacks.isEmpty, "\(rang.fallbacks)")
    }

    @Test func aFolderRingsItsFilesInOrder() throws {
        let folder = ScratchFiles.makeDirectory("alarm-sound-folder")
        _ = try Self.tone(600, seconds: 2, in: folder, named: "01 first.mp3")
        _ = try Self.tone(700, seconds: 2, in: folder, named: "02 second.mp3")
        let rang = try ring(folder)
        expectRings(rang, 600, seconds: 0.5...1.5, "the folder's first file")
        expectRings(rang, 700, seconds: 2.6...3.6, "the folder's second file")
        #expect(rang.fallbacks.isEmpty, "\(rang.fallbacks)")
    }

    @Test func aSavedPlaylistRingsByItsName() throws {
        let state = ScratchFiles.makeDirectory("alarm-sound-playlist-state")
        let playlists = state + "/data/interlude/playlists"
        try FileManager.default.createDirectory(atPath: playlists, withIntermediateDirectories: true)
        let folder = ScratchFiles.makeDirectory("alarm-sound-playlist")
        let first = try Self.tone(760, seconds: 2, in: folder, named: "a.mp3")
        let second = try Self.tone(360, seconds: 3, in: folder, named: "b.mp3")
        try "#EXTM3U\n\(second)\n\(first)\n".write(toFile: playlists + "/morning.m3u8", atomically: true, encoding: .utf8)
        let rang = try ring("playlist:morning", stateHome: state)
        expectRings(rang, 360, seconds: 0.5...1.5, "the playlist's first entry")
        expectRings(rang, 760, seconds: 3.5...4.5, "the playlist's second entry")
        #expect(rang.fallbacks.isEmpty, "\(rang.fallbacks)")
    }

    @Test func aBookRingsFromItsPlaceAndThePlaceMovesOnAndIsSaved() throws {
        let book = ScratchFiles.makeDirectory("alarm-sound-book")
        _ = try Self.tone(300, seconds: 3, in: book, named: "01.mp3")
        _ = try Self.tone(660, seconds: 30, in: book, named: "02.mp3")
        let state = ScratchFiles.makeDirectory("alarm-sound-book-state")

        let first = try ring("book:" + book, stateHome: state)
        expectRings(first, 300, seconds: 0.5...1.5, "the book's start")
        expectRings(first, 660, seconds: 3.8...4.8, "the book's second file")
        let afterFirst = try #require(try Self.savedPlace(state), "no place saved")
        // Five seconds rang from the start: the place is about 5 s into the book (in its second file).
        #expect((4000...6500).contains(afterFirst), "saved at \(afterFirst) ms")

        let second = try ring("book:" + book, stateHome: state)
        expectRings(second, 660, seconds: 0.5...1.5, "the book from its place")
        let afterSecond = try #require(try Self.savedPlace(state))
        #expect((afterFirst + 4000...afterFirst + 6500).contains(afterSecond), "saved at \(afterSecond) ms after \(afterFirst) ms")
        #expect(first.fallbacks.isEmpty && second.fallbacks.isEmpty, "\(first.fallbacks) \(second.fallbacks)")
    }

    @Test func aStationRingsAsTheAlarm() throws {
        let server = try IcecastServer.start()
        defer { server.stop() }
        try server.startSource(mount: "wake.mp3", wav: Fixtures.wav(.tone(frequency: 1000), seconds: 20), format: .mp3)
        let rang = try ring(server.url("wake.mp3"))
        expectRings(rang, 1000, seconds: 1...2, "the station")
        #expect(rang.fallbacks.isEmpty, "\(rang.fallbacks)")
    }

    /// The ramp: from silence to the sound's level over 4 s, then level. The
    /// ramp's start is where the fitted line of its amplitude (100 ms windows)
    /// meets zero; each second of it has the RMS of a linear ramp's second.
    @Test func theRampRisesFromSilenceToTheAlarmsVolumeAsSet() throws {
        let folder = ScratchFiles.makeDirectory("alarm-sound-ramp")
        let file = try Self.tone(520, seconds: 12, in: folder, named: "wake.mp3")
        let level = ToneMeter.amplitude(try WAVFile.read(Fixtures.decodedByMPG123(file)), frames: Self.rate..<(2 * Self.rate), frequency: 520)
        let ramp = 4.0
        let rang = try ring(file, ring: 7, extra: ["--alarm-ramp", "4s"])
        // The amplitude, 100 ms at a time, over the ramp's middle: a line.
        var points: [(x: Double, y: Double)] = []
        for tenth in 5..<35 {
            let seconds = Double(tenth) / 10
            points.append((seconds, rang.amplitude(at: 520, seconds: seconds...(seconds + 0.1)) / level))
        }
        let (slope, intercept) = ToneMeter.line(points)
        #expect(abs(slope - 1 / ramp) < 0.1 / ramp, "rises \(slope) of full level a second, set to \(1 / ramp): \(points)")
        let start = -intercept / slope + 0.05  // the windows' centres
        #expect((0...0.3).contains(start), "the ramp starts \(start) s after the due time")
        // RMS per second of the ramp against a linear ramp's: sqrt of the mean of (t/T)^2 over each second.
        let frames = Self.rate
        for second in 0..<Int(ramp) {
            let from = rang.frame(start + Double(second))
            let rms = SignalAnalysis.rms(rang.capture, frames: from..<(from + frames))
            let full = level / 2.0.squareRoot()
            let k = Double(second)
            let expected = full * (((k + 1) * (k + 1) * (k + 1) - k * k * k) / (3 * ramp * ramp)).squareRoot()
            #expect(abs(rms - expected) < 0.1 * expected + 0.003, "second \(second): RMS \(rms), a linear ramp's \(expected)")
        }
        // Then level at the sound's own level (the alarm's volume, 1).
        let plateau = rang.amplitude(at: 520, seconds: (start + ramp + 0.5)...(start + ramp + 1.5)) / level
        #expect(abs(plateau - 1) < 0.05, "after the ramp at \(plateau) of the file's level")
        #expect(rang.fallbacks.isEmpty, "\(rang.fallbacks)")
    }

    @Test func theToneRingsWithin4SecondsWhenTheFileWasRemovedBeforeTheAlarm() throws {
        let folder = ScratchFiles.makeDirectory("alarm-sound-removed")
        let file = try Self.tone(520, seconds: 10, in: folder, named: "wake.mp3")
        // Due at 9 s, the sound opened 5 s before: removed while the music plays, before that.
        let rang = try ring(file, alarmIn: 9, ring: 5) { process in
            #expect(process.waitForEvent(named: "trackStarted", timeout: 30) != nil)
            #expect(unlink(file) == 0)
        }
        let onset = try #require(rang.toneOnset, "no built-in tone after the due time: \(rang.events.events)")
        #expect(onset <= 4, "the tone rang \(onset) s after the due time")
        #expect(rang.amplitude(at: 520, seconds: 0.5...1.5) < 0.02)
        let fallback = try #require(rang.fallbacks.first, "\(rang.events.events)")
        #expect(fallback.message?.contains(file) == true, "\(fallback)")
    }

    @Test("the tone rings within 4 s when the station stalls or is down", arguments: ["stalls", "down"])
    func theToneRingsWithin4SecondsWhenTheStationFails(kind: String) throws {
        let served = ScratchFiles.makeDirectory("alarm-sound-served")
        _ = try Self.tone(1000, seconds: 10, in: served, named: "radio.mp3")
        let server = try StreamFileServer.start(root: served)
        defer { server.stop() }
        // One that accepts and says nothing; one where nothing listens.
        let url = kind == "stalls" ? server.silentURL("radio.mp3") : "http://127.0.0.1:\(try LoopbackHTTP.freePort())/radio.mp3"
        let rang = try ring(url, ring: 6)
        let onset = try #require(rang.toneOnset, "no built-in tone after the due time: \(rang.events.events)")
        #expect(onset <= 4, "the tone rang \(onset) s after the due time")
        let fallback = try #require(rang.fallbacks.first, "\(rang.events.events)")
        #expect(fallback.message?.contains(url) == true, "\(fallback)")
        if kind == "stalls" {
            // It waited the 3 s of silence first: the tone is the fallback, not the sound.
            #expect(onset >= 3 && fallback.message?.contains("gave no sound for 3 s") == true, "\(onset) s, \(fallback)")
        }
    }

    /// The place the book's state file holds, in milliseconds.
    static func savedPlace(_ stateHome: String) throws -> Int? {
        let folder = stateHome + "/interlude/books"
        guard let name = try FileManager.default.contentsOfDirectory(atPath: folder).first(where: { $0.hasSuffix(".json") }) else { return nil }
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return ((object?["position"] as? [String: Any])?["milliseconds"] as? NSNumber)?.intValue
    }
}

/// A sine's amplitude at one frequency (Goertzel), and a least-squares line.
enum ToneMeter {
    /// The amplitude (0...1 of full scale) of `frequency` in the first channel over `frames`.
    static func amplitude(_ audio: PCMAudio, frames: Range<Int>, frequency: Double) -> Double {
        let range = max(0, frames.lowerBound)..<min(audio.frameCount, frames.upperBound)
        guard range.count > 0 else { return 0 }
        let coefficient = 2 * cos(2 * Double.pi * frequency / Double(audio.sampleRate))
        var previous = 0.0
        var beforePrevious = 0.0
        for frame in range {
            let sample = Double(audio.samples[frame * audio.channels]) / 32768
            let next = sample + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = next
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return 2 * max(0, power).squareRoot() / Double(range.count)
    }

    static func line(_ points: [(x: Double, y: Double)]) -> (slope: Double, intercept: Double) {
        let n = Double(points.count)
        let meanX = points.map(\.x).reduce(0, +) / n
        let meanY = points.map(\.y).reduce(0, +) / n
        let covariance = points.map { ($0.x - meanX) * ($0.y - meanY) }.reduce(0, +)
        let variance = points.map { ($0.x - meanX) * ($0.x - meanX) }.reduce(0, +)
        let slope = covariance / variance
        return (slope, meanY - slope * meanX)
    }
}
