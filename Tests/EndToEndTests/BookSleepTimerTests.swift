import Foundation
import Testing
import TestSupport

/// Acceptance 5: the end-of-chapter sleep timer, rendered on the frame clock.
@Suite struct BookSleepTimerTests {
    /// The book fades out over the chapter's last 10 s and is silent from the
    /// chapter's end; an alarm afterwards rings, ends with shouldResume, and
    /// the book stays paused: the sleep timer's pause is the listener's own.
    @Test(arguments: [BookUnderTest.Form.mp3, .m4b])
    func endOfChapterFadesStopsAtTheChapterEndAndAnAlarmAfterwardsLeavesTheBookPaused(_ form: BookUnderTest.Form) throws {
        let chapterEnd = 14.25
        let book = try BookUnderTest.chaptered("Sleep", seconds: 30, chapters: [("One", 0), ("Two", 14_250), ("Three", 22_000)],
                                               form: form)
        let wav = ScratchFiles.makeDirectory("sleep") + "/out.wav"
        let run = try book.play(output: .wav(wav), ["--sleep", "chapter", "--alarm-in", "17", "--alarm-ring", "2"])
        #expect(run.process.exitStatus == 0, "\(run.process.summary)")
        let events = run.events
        #expect(events.named("sleepFadeStarted").first.map { abs($0.t - (chapterEnd - 10)) < 0.001 } == true, "\(events.events)")
        #expect(events.named("sleepFadeStarted").first?.seconds("fade") == 10)
        #expect(events.named("sleepTimerExpired").first.map { abs($0.t - chapterEnd) < 0.001 } == true)
        // The pause took effect at the chapter's end and that is the place kept.
        #expect(events.named("positionSaved").last?.seconds("position") == chapterEnd)
        #expect(try book.savedPosition() == chapterEnd)

        // The alarm rang, ended with shouldResume, and nothing resumed the book.
        #expect(events.named("alarmRinging").count == 1)
        let ended = events.named("interruption").filter { $0.fields["type"]?.description == "ended" }
        #expect(ended.count == 1 && ended[0].fields["options"]?.description.contains("shouldResume") == true)
        #expect(events.named("resumed").isEmpty, "\(events.named("resumed"))")
        #expect(events.named("resumeRequested").isEmpty)

        let audio = try WAVFile.read(wav)
        let rate = Double(audio.sampleRate)
        func frame(_ seconds: Double) -> Int { Int((seconds * rate).rounded()) }
        func peak(_ from: Double, _ to: Double) -> Int {
            audio.samples[frame(from) * audio.channels..<frame(to) * audio.channels].map { abs(Int($0)) }.max() ?? 0
        }
        // Before the alarm: the last non-silent sample is within 100 ms of the chapter's end.
        let beforeAlarm = audio.frames(0..<frame(16.9))
        let bounds = try #require(SignalAnalysis.signalBounds(beforeAlarm))
        let lastSound = Double(bounds.upperBound) / rate
        #expect(abs(lastSound - chapterEnd) < 0.1, "last sound at \(lastSound) s, chapter ends at \(chapterEnd) s")
        // After its fade: full level before it, half way down in its middle, a tenth a second before the end.
        let full = peak(1, 2)
        #expect(full > 10_000)
        #expect(abs(Double(peak(chapterEnd - 10.6, chapterEnd - 10.1)) / Double(full) - 1) < 0.02)
        #expect(abs(Double(peak(chapterEnd - 5.05, chapterEnd - 4.95)) / Double(full) - 0.5) < 0.03)
        #expect(abs(Double(peak(chapterEnd - 1.05, chapterEnd - 0.95)) / Double(full) - 0.1) < 0.02)
        // The alarm sounded at 17 s; after it the render ended, as nothing was left to
        // happen: a resumed book would have played on to 30 s.
        #expect(peak(17, 19) > 1_000)
        #expect(audio.durationSeconds < 19.5, "the render went on to \(audio.durationSeconds) s: the book resumed")
    }

    @Test func minutesCountListeningTimeAndFadeIntoAPause() throws {
        let book = try BookUnderTest.folder("Minutes", files: 2, seconds: 45)
        let run = try book.play(["--sleep", "1", "--alarm-in", "70", "--alarm-ring", "1"])
        #expect(run.events.named("sleepTimerSet").first?.seconds("remaining") == 60)
        #expect(run.events.named("sleepFadeStarted").first?.t == 50)
        #expect(run.events.named("sleepTimerExpired").first?.t == 60)
        #expect(try book.savedPosition() == 60)
        #expect(run.events.named("resumed").isEmpty)
    }
}
