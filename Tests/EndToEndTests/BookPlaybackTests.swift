import Foundation
import Testing
import TestSupport

/// Books on the frame clock (file sinks): deterministic and fast.
@Suite struct BookPlaybackTests {
    @Test func aFolderPlaysAsABookInNaturalOrderFromTheStartAndItsEndIsSaved() throws {
        let book = try BookUnderTest.folder("Walk", files: 3, seconds: 4)
        let run = try book.play()
        #expect(run.process.exitStatus == 0, "\(run.process.summary)")
        let opened = try #require(run.events.named("bookOpened").first)
        #expect(opened.fields["title"]?.description == "Walk")
        #expect(opened.seconds("position") == 0)
        #expect(opened.seconds("duration") == 12)
        #expect(opened.number("chapters") == 3)
        #expect(run.events.named("trackStarted").compactMap(\.path).map { ($0 as NSString).lastPathComponent }
                == ["Part 1.mp3", "Part 2.mp3", "Part 3.mp3"])
        #expect(try book.savedPosition() == 12)
    }

    @Test func twoFilesStayMusic() throws {
        let book = try BookUnderTest.folder("Music", files: 2, seconds: 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: book.path).sorted().map { book.path + "/" + $0 }
        let run = try InterludeBinary.play(files, output: .null, environment: book.environment)
        #expect(run.process.exitStatus == 0)
        #expect(run.events.named("bookOpened").isEmpty)
        #expect(book.stateFile == nil)
        // One file without chapters is music too, unless --book says otherwise.
        let single = try InterludeBinary.play([files[0]], output: .null, environment: book.environment)
        #expect(single.events.named("bookOpened").isEmpty)
        let forced = try InterludeBinary.play([files[0]], output: .null, extraArguments: ["--book"], environment: book.environment)
        #expect(forced.events.named("bookOpened").first?.fields["title"]?.description == "Part 1")
        #expect(forced.events.named("bookOpened").first?.number("chapters") == 1)
        // Book options without a book are refused with a reason.
        let refused = try InterludeBinary.play(files, output: .null, extraArguments: ["--sleep", "5"], environment: book.environment)
        #expect(refused.process.exitStatus == 2)
        #expect(refused.process.stderrText.contains("need a book"))
    }

    /// Per-book resume: the sleep timer stops the first run at 60 s; the next
    /// run starts there less smart rewind, which grows with the time away
    /// (BookPlayer's formula) and stops at the chapter's start.
    @Test func eachBookResumesWhereItWasLeftWithSmartRewind() throws {
        let book = try BookUnderTest.folder("Resume", files: 3, seconds: 40)
        let other = try BookUnderTest.folder("Other", files: 1, seconds: 20)
        let first = try book.play(["--sleep", "1"])
        #expect(first.events.named("sleepTimerExpired").first?.t == 60)
        // Book positions are in book time (`paused` counts the stream's frames).
        #expect(first.events.named("positionSaved").last?.seconds("position") == 60)
        #expect(try book.savedPosition() == 60)
        let state = try book.state()
        #expect((state["position"] as? [String: Any])?["file"] as? String == "Part 2.mp3")
        #expect((state["position"] as? [String: Any])?["offsetMilliseconds"] as? Int == 20_000)

        // Another book has its own state: it starts at 0 and leaves this one alone.
        let elsewhere = try BookUnderTest(path: other.path, stateHome: book.stateHome).play()
        #expect(elsewhere.events.named("bookOpened").first?.seconds("position") == 0)
        #expect(try book.savedPosition() == 60)

        // Ten minutes away: ease(600/3600) * 30 s = (1 - (5/6)^4) * 30 = 15.53 s back.
        try book.backdate(by: 600)
        let second = try book.play(["--sleep", "1"])
        let reopened = try #require(second.events.named("bookOpened").first)
        #expect(reopened.seconds("saved") == 60)
        let fifth: Double = 5.0 / 6.0
        let expected: Double = (1 - fifth * fifth * fifth * fifth) * 30
        #expect(abs((reopened.seconds("rewind") ?? 0) - expected) < 0.05, "\(reopened)")
        #expect(abs((reopened.seconds("position") ?? 0) - (60 - expected)) < 0.05)
        // It plays from there: the first track heard is the second file.
        #expect(second.events.named("trackStarted").first?.path?.hasSuffix("Part 2.mp3") == true)
        let stoppedAt = try #require(second.events.named("positionSaved").last?.seconds("position"))
        #expect(abs(stoppedAt - (60 - expected + 60)) < 0.05, "second run paused at \(stoppedAt)")

        // An hour away rewinds the full 30 s, but not past the chapter's start (40 s).
        try book.backdate(by: 3600)
        let third = try book.play(["--sleep", "1"])
        let saved = try #require(third.events.named("bookOpened").first?.seconds("saved"))
        #expect(third.events.named("bookOpened").first?.seconds("position") == max(80, saved - 30))
    }

    /// After an alarm, spoken audio goes back by smart rewind, but not past the
    /// start of the chapter, even one that begins inside the file.
    @Test(arguments: BookUnderTest.Form.allCases)
    func smartRewindAfterAnAlarmStopsAtTheChaptersStart(_ form: BookUnderTest.Form) throws {
        let book = try BookUnderTest.chaptered("Rewind", seconds: 12, chapters: [("A", 0), ("B", 5_000)], form: form)
        let run = try book.play(["--alarm-in", "6", "--alarm-ring", "3"])
        #expect(run.events.named("alarmRinging").count == 1)
        let resumed = try #require(run.events.named("resumed").first, "\(run.events.events)")
        // Stopped at 6.03 s (the 30 ms fade); the 2 s floor would reach 4.03 s, in chapter A.
        #expect(resumed.seconds("position") == 5, "\(resumed)")
        #expect(abs((resumed.seconds("rewind") ?? 0) - 1.03) < 0.001)
    }

    /// In a book, `pauseRequested`, `paused` and `resumed` report book time,
    /// like `positionSaved`: started at a bookmark in the second file, the
    /// alarm's pause is 25 s + 2 s + the fade into the book, not 7 s into the stream.
    @Test func pauseAndResumePositionsAreInBookTime() throws {
        let book = try BookUnderTest.folder("BookTime", files: 3, seconds: 20)
        #expect(try book.bookmark("add", ["--at", "0:25"]).exitStatus == 0)
        let run = try book.play(["--bookmark", "1", "--alarm-in", "2", "--alarm-ring", "1"])
        #expect(run.events.named("bookOpened").first?.seconds("position") == 25)
        let requested = try #require(run.events.named("pauseRequested").first?.seconds("position"), "\(run.events.events)")
        #expect(abs(requested - 27) < 0.001, "pause requested at \(requested)")
        let paused = try #require(run.events.named("paused").first?.seconds("position"))
        #expect(abs(paused - 27.03) < 0.001, "paused at \(paused)")
        let resumed = try #require(run.events.named("resumed").first)
        let position = try #require(resumed.seconds("position")), rewind = try #require(resumed.seconds("rewind"))
        #expect(rewind > 0 && abs(position + rewind - paused) < 0.001, "\(resumed)")
    }

    /// The speed is remembered per book: the next run plays at it unless
    /// --speed says otherwise. The end-of-chapter sleep timer counts listening
    /// time, so at 2.0x a 40 s chapter ends after 20 s.
    @Test(arguments: BookUnderTest.Form.allCases)
    func speedIsRememberedPerBook(_ form: BookUnderTest.Form) throws {
        let book = try BookUnderTest.folder("Fast-\(form)", files: 3, seconds: 40, form: form)
        let first = try book.play(["--speed", "2", "--sleep", "chapter"])
        #expect(first.events.named("bookOpened").first?.seconds("speed") == 2)
        #expect(first.events.named("sleepTimerExpired").first?.t == 20)
        let stopped = try #require(first.events.named("positionSaved").last?.seconds("position"))
        #expect(abs(stopped - 40) < 0.05, "stopped at \(stopped) s of book time")
        #expect(try book.state()["speed"] as? Double == 2)

        // Another book keeps its own speed.
        let other = try BookUnderTest(path: try BookUnderTest.folder("Slow-\(form)", files: 1, seconds: 2, form: form).path,
                                      stateHome: book.stateHome).play()
        #expect(other.events.named("bookOpened").first?.seconds("speed") == 1)

        let second = try book.play(["--sleep", "chapter"])
        #expect(second.events.named("bookOpened").first?.seconds("speed") == 2)
        #expect(second.events.named("sleepTimerExpired").first?.t == 20)

        let third = try book.play(["--speed", "1", "--sleep", "chapter"])
        #expect(third.events.named("bookOpened").first?.seconds("speed") == 1)
        #expect(third.events.named("sleepTimerExpired").first?.t == 40)
        #expect(try book.state()["speed"] as? Double == 1)
    }

    @Test(arguments: [BookUnderTest.Form.mp3, .m4b])
    func bookmarksAreAddedListedJumpedToAndDeleted(_ form: BookUnderTest.Form) throws {
        let book = try BookUnderTest.chaptered("Marks", seconds: 30, chapters: [("Opening", 0), ("Middle", 12_000), ("Close", 24_500)],
                                               form: form)
        let added = try book.bookmark("add", ["--at", "0:13.5", "--note", "the \"key\" line"])
        #expect(added.exitStatus == 0, "\(added.summary)")
        #expect(added.stdoutText.contains("bookmark 1 at 0:13"))
        #expect(try book.bookmark("add", ["--at", "25"]).stdoutText.contains("bookmark 2 at 0:25  Close"))
        #expect(try book.bookmark("add", ["--at", "5", "--note", "early"]).exitStatus == 0)

        let listed = try book.bookmark("list", ["--json"])
        let marks = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
        #expect(marks.compactMap { $0["id"] as? Int } == [3, 1, 2])
        #expect(marks.compactMap { $0["position"] as? Double } == [5, 13.5, 25])
        #expect(marks.compactMap { $0["chapter"] as? String } == ["Opening", "Middle", "Close"])
        #expect(marks[1]["note"] as? String == "the \"key\" line")

        // Jump: play from bookmark 1, exactly (no smart rewind).
        let run = try book.play(["--bookmark", "1"])
        let opened = try #require(run.events.named("bookOpened").first)
        #expect(opened.seconds("position") == 13.5)
        #expect(opened.fields["chapterTitle"]?.description == "Middle")
        #expect(run.events.named("trackEnded").last.map { abs($0.t - 16.5) < 0.02 } == true, "\(run.events.events)")

        #expect(try book.bookmark("delete", ["1"]).stdoutText == "deleted bookmark 1\n")
        let after = try book.bookmark("list")
        #expect(after.stdoutText.split(separator: "\n").map { String($0.prefix(1)) } == ["3", "2"])
        let missing = try book.play(["--bookmark", "1"])
        #expect(missing.process.exitStatus == 2)
        #expect(missing.process.stderrText.contains("no bookmark 1"))
        #expect(try book.bookmark("delete", ["1"]).exitStatus == 1)
        #expect(try book.bookmark("add", ["--at", "31"]).exitStatus == 2)
    }

    @Test func aCorruptStateFileIsNamedSetAsideAndTheBookStartsOver() throws {
        let book = try BookUnderTest.folder("Corrupt", files: 1, seconds: 3)
        _ = try book.play()
        let file = try #require(book.stateFile)
        try Data("{\"version\": 1, \"position\": {\"milli".utf8).write(to: URL(fileURLWithPath: file))
        let run = try book.play()
        #expect(run.process.exitStatus == 0)
        let lines = run.process.stderrText.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(file) && lines[0].contains("corrupt"), "\(run.process.stderrText)")
        #expect(run.events.named("bookOpened").first?.seconds("position") == 0)
        let kept = try FileManager.default.contentsOfDirectory(atPath: book.booksDirectory).filter { $0.contains(".corrupt-") }
        #expect(kept.count == 1)
        #expect(FileManager.default.contents(atPath: book.booksDirectory + "/" + kept[0]) == Data("{\"version\": 1, \"position\": {\"milli".utf8))
        // And a fresh state was written.
        #expect(try book.savedPosition() == 3)
    }
}
