import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Places stay the file's own samples with pauses trimmed and the speed
/// changed: resumes after an alarm and a call, and the place kept through
/// `kill -9`; and the settings kept per book and per podcast.
@Suite(.serialized) struct SpokenAudioPlaceTests {
    static let rate = SpokenAudioFixture.rate
    static let fade = 30 * rate / 1000

    /// A one-file book (a folder) of sentences between pauses, 30 s long.
    static func book(_ name: String) throws -> (book: BookUnderTest, file: String, laid: SpokenAudioFixture.Laid) {
        var pieces: [SpokenAudioFixture.Piece] = [.pause(0.4)]
        let sentences = ["The train left the station at dawn.", "Fields went by, then a river.",
                         "A woman read a letter twice.", "Nobody spoke until the border.",
                         "There the guards checked every bag.", "Then the mountains began."]
        for (index, sentence) in sentences.enumerated() {
            pieces += [.sentence(sentence), .pause([2.5, 0.25, 1.2, 3.0, 0.4, 1.8][index])]
        }
        pieces += [.sentence("The end of the first part.")] + pieces.dropFirst()
        let laid = try SpokenAudioFixture.make(pieces, name: name)
        let root = ScratchFiles.makeDirectory("spoken-book-\(name)")
        let folder = root + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/Part 1.mp3"
        try FileManager.default.copyItem(atPath: laid.mp3, toPath: file)
        return (BookUnderTest(path: folder, stateHome: root + "/state"), file, laid)
    }

    func render(_ arguments: [String], environment: [String: String] = [:], name: String) throws -> (audio: PCMAudio, events: EventLog) {
        let output = ScratchFiles.makeDirectory("spoken-place") + "/\(name).wav"
        let result = try InterludeBinary.run(["play"] + arguments + ["--output", "wav:" + output, "--events", "json"],
                                             environment: environment, timeout: 300)
        #expect(result.succeeded, "\(result.summary)")
        return (try WAVFile.read(output), EventLog(stdout: result.stdoutText))
    }

    /// The last `count` frames of `a` and `b` are the same samples; the first difference named.
    /// `tolerance` 1 allows a one-step difference: after a seek, libmpg123 can round a
    /// handful of samples of a decode differently than a full decode (a shift by a frame
    /// would differ by thousands; see `PreemptionRenderTests.expectSame`).
    func expectSameTail(_ a: PCMAudio, _ b: PCMAudio, count: Int, _ what: String, tolerance: Int = 0,
                        sourceLocation: SourceLocation = #_sourceLocation) {
        let tailA = a.samples.suffix(count * a.channels)
        let tailB = b.samples.suffix(count * b.channels)
        #expect(tailA.count == count * a.channels && tailB.count == count * b.channels, "\(what): too short", sourceLocation: sourceLocation)
        if let offset = zip(tailA, tailB).enumerated().first(where: { abs(Int($0.element.0) - Int($0.element.1)) > tolerance })?.offset {
            Issue.record("\(what): first difference \(count - offset / a.channels) frames from the end", sourceLocation: sourceLocation)
        }
    }

    /// The file frame heard at output frame `frame` of a render at `speed` with
    /// pauses trimmed, from the audio alone: at 1.0x the render's own samples
    /// found in the source; at another speed, the 1.0x trimmed render's frame
    /// that many trimmed frames in (libsonic consumes `speed` frames an output
    /// frame, give or take its few milliseconds of latency).
    func heardFileFrame(_ frame: Int, speed: Double, render: PCMAudio, trimmed: PCMAudio, source: PCMAudio) -> Int? {
        if speed == 1.0 { return SpokenAudioFixture.sourceFrame(of: frame, in: render, source: source) }
        return SpokenAudioFixture.sourceFrame(of: Int((Double(frame) * speed).rounded()), in: trimmed, source: source)
    }

    @Test(arguments: [1.0, 1.5])
    func anAlarmAndACallInATrimmedBookResumeOnTheFileSampleLessSmartRewind(speed: Double) throws {
        let (book, file, laid) = try Self.book("resume-\(speed)")
        let common = ["--trim-silence", "medium", "--speed", String(speed)]
        let run = try render([book.path] + common + ["--alarm-in", "5", "--alarm-ring", "2", "--call-at", "11", "--call-end", "13"],
                             environment: book.environment, name: "interrupted-\(speed)")
        let whole = try render([file, "--spoken", "--trim-silence", "medium"], name: "whole-\(speed)")
        let paused = run.events.named("paused")
        let resumed = run.events.named("resumed")
        #expect(paused.count == 2 && resumed.count == 2, "\(run.events.events.map(\.event))")
        for (stop, resume) in zip(paused, resumed) {
            let position = try #require(stop.number("position"))
            let back = try #require(resume.number("position"))
            let rewind = try #require(resume.number("rewind"))
            // Smart rewind goes back in the file's time, from the file sample heard last.
            #expect(rewind > 1 && abs(position - rewind - back) < 2e-6, "paused at \(position), resumed at \(back), rewind \(rewind)")
        }
        // The alarm's pause: the file frame heard as its 30 ms fade began (output frame 5 s), from the audio.
        let pausedAt = try #require(paused.first?.number("position"))
        let heard = try #require(heardFileFrame(5 * Self.rate - 1, speed: speed, render: run.audio, trimmed: whole.audio,
                                                source: laid.source), "the frame before the alarm is not the file's")
        let fadeInFile = Double(Self.fade) * speed / Double(Self.rate)
        #expect(abs(pausedAt - fadeInFile - Double(heard) / Double(Self.rate)) <= 0.03,
                "paused at \(pausedAt) s of file, the audio says \(Double(heard) / Double(Self.rate)) s + the fade")
        if speed == 1.0 {
            // The call's pause too (output frame 11 s: after the alarm's tone and the resume).
            let callPaused = try #require(paused.last?.number("position"))
            let heardAtCall = try #require(SpokenAudioFixture.sourceFrame(of: 11 * Self.rate - 1, in: run.audio, source: laid.source))
            #expect(abs(callPaused - fadeInFile - Double(heardAtCall) / Double(Self.rate)) <= 0.001, "call paused at \(callPaused) s")
            // After the last resume's fade-in, the file from the resume's sample on: its first frame found in the source.
            let last = try #require(resumed.last?.number("position"))
            let resumeOutput = 13 * Self.rate + Self.fade
            if let first = SpokenAudioFixture.sourceFrame(of: resumeOutput, in: run.audio, source: laid.source) {
                #expect(first >= Int((last * Double(Self.rate)).rounded()), "resumed at \(last) s, but plays file frame \(first)")
            }
        }
        let last = try #require(resumed.last?.number("position"))
        // Uninterrupted from that file sample: the same file, trimmed at the same speed, started there.
        let fresh = try render([file, "--spoken", "--start", String(format: "%.6f", last)] + common, name: "from-\(speed)")
        expectSameTail(run.audio, fresh.audio, count: fresh.audio.frameCount - Self.fade - 1, "after the last resume")
        if speed == 1.0 {
            // And at 1.0x, the uninterrupted render of the whole book from its start, from there on.
            expectSameTail(run.audio, whole.audio, count: fresh.audio.frameCount - Self.fade - 1, "against the whole render",
                           tolerance: 1)
        }
    }

    /// Killed while it plays in real time, trimmed at 1.5x: the place kept is
    /// the file position heard (found by rendering the same book on the frame
    /// clock to the length captured), not the time played.
    @Test func killedWhileTrimmedAtOneAndAHalfTheSavedPlaceIsTheHeardFilePosition() throws {
        let (book, file, laid) = try Self.book("killed")
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let listener = try BookRealTimeTests.Listener(book, sink: sink, ["--trim-silence", "medium", "--speed", "1.5"])
        #expect(listener.event("trackStarted") != nil, "\(listener.events.events)")
        // Past the first long pause, and right after a save.
        usleep(7_000_000)
        let saves = listener.events.named("positionSaved").count
        _ = listener.event("positionSaved", saves, timeout: 3)
        listener.player.send(SIGKILL)
        _ = listener.player.wait(timeout: 10)
        let capture = try recorder.stop()
        let heard = try #require(SignalAnalysis.signalBounds(capture), "nothing was captured")
        let heardSeconds = Double(heard.count) / Double(capture.sampleRate)
        #expect(heardSeconds > 5, "\(heardSeconds) s heard")
        // The file position heard then, from the audio alone (see `heardFileFrame`).
        let trimmed = try render([file, "--spoken", "--trim-silence", "medium"], name: "killed-trimmed")
        let frame = try #require(heardFileFrame(heard.count, speed: 1.5, render: capture, trimmed: trimmed.audio, source: laid.source),
                                 "the heard frame is not found in the trimmed render")
        let filePosition = Double(frame) / Double(Self.rate)
        let saved = try book.savedPosition()
        #expect(abs(saved - filePosition) <= 0.5, "saved \(saved) s, heard the file at \(filePosition) s (\(heardSeconds) s played)")
        #expect(filePosition - heardSeconds * 1.5 > 1, "the pauses cut ahead of the place: \(filePosition) s of file in \(heardSeconds) s")
    }

    @Test func aBooksSettingsSurviveARestartAndStayItsOwn() throws {
        let (book, _, _) = try Self.book("settings")
        let first = try book.play(output: .null, ["--trim-silence", "strong", "--voice-boost", "-20"])
        #expect(first.process.succeeded, "\(first.process.summary)")
        let state = try book.state()
        #expect(state["trimSilence"] as? String == "strong" && state["voiceBoost"] as? String == "-20", "\(state)")
        #expect((state["timeSavedMilliseconds"] as? Double ?? 0) > 4000, "\(state)")
        // A restart without the flags plays with the book's own.
        let second = try book.play(output: .null)
        let setting = try #require(second.events.named("spokenAudio").first, "\(second.events.events.map(\.event))")
        #expect(setting.fields["trimSilence"]?.description == "strong" && setting.fields["voiceBoost"]?.description == "-20")
        // Another book in the same state folder has its own (none).
        let (otherFolder, _, _) = try Self.book("other")
        let other = BookUnderTest(path: otherFolder.path, stateHome: book.stateHome)
        let third = try other.play(output: .null)
        #expect(third.events.named("spokenAudio").isEmpty, "\(third.events.named("spokenAudio"))")
        #expect(third.events.named("timeSaved").isEmpty)
    }

    @Test func configDefaultsApplyToTheirOwnKindAndAPodcastKeepsItsSettings() throws {
        let root = ScratchFiles.makeDirectory("spoken-feed")
        let laid = try SpokenAudioFixture.make([.sentence("Welcome to the show."), .pause(2.5), .sentence("Today, pauses.")],
                                               name: "episode")
        try FileManager.default.copyItem(atPath: laid.mp3, toPath: root + "/one.mp3")
        try FileManager.default.copyItem(atPath: laid.mp3, toPath: root + "/two.mp3")
        let server = try FeedServer.start(root: root)
        defer { server.stop() }
        let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Pauses</title>
        <item><title>Two</title><guid>two</guid><pubDate>Tue, 02 Jan 2024 10:00:00 +0000</pubDate>
        <enclosure url="\(server.url("two.mp3"))" length="1" type="audio/mpeg"/></item>
        <item><title>One</title><guid>one</guid><pubDate>Mon, 01 Jan 2024 10:00:00 +0000</pubDate>
        <enclosure url="\(server.url("one.mp3"))" length="1" type="audio/mpeg"/></item>
        </channel></rss>

        """
        try feed.write(toFile: root + "/feed.xml", atomically: true, encoding: .utf8)
        let home = PodcastHome()
        try home.configure("book-trim-silence = gentle\npodcast-voice-boost = on\n")
        #expect(try home.add(server.url("feed.xml")) != nil)
        let state = ScratchFiles.makeDirectory("spoken-feed-state")
        let environment = home.environment.merging(["XDG_STATE_HOME": state, "XDG_CONFIG_HOME": home.config]) { $1 }
        func settings(_ arguments: [String]) throws -> (trim: String?, boost: String?) {
            let result = try InterludeBinary.run(arguments + ["--output", "null", "--events", "json"], environment: environment, timeout: 120)
            #expect(result.succeeded, "\(result.summary)")
            let event = EventLog(stdout: result.stdoutText).named("spokenAudio").last
            return (event?.fields["trimSilence"]?.description, event?.fields["voiceBoost"]?.description)
        }
        // An episode: the podcasts' default (voice boost on, no trimming).
        let episode = try settings(["podcast", "play", "Pauses", "One"])
        #expect(episode.trim == "off" && episode.boost == "-18", "\(episode)")
        // A book: the books' default (trimming gentle, no voice boost).
        let (book, _, _) = try Self.book("defaults")
        let asBook = try settings(["play", book.path])
        #expect(asBook.trim == "gentle" && asBook.boost == "off", "\(asBook)")
        // Music: nothing, whatever the config says.
        let music = try settings(["play", laid.mp3])
        #expect(music.trim == nil && music.boost == nil)
        // A podcast's setting, chosen during one episode, is the next episode's after a restart.
        let chosen = try settings(["podcast", "play", "Pauses", "One", "--trim-silence", "strong"])
        #expect(chosen.trim == "strong")
        let next = try settings(["podcast", "play", "Pauses", "Two"])
        #expect(next.trim == "strong" && next.boost == "-18", "\(next)")
        // ... and never a book's.
        let bookAgain = try settings(["play", book.path])
        #expect(bookAgain.trim == "gentle", "\(bookAgain)")
    }
}
