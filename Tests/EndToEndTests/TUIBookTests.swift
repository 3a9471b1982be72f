import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Books in the full-screen player: the real binary in tmux,
/// audio through a PulseAudio null sink in real time. Every wait polls the
/// screen until its condition holds.
@Suite(.serialized) struct TUIBookTests {
    static let titles = ["Opening Credits", "Chapter Two: Ålesund", "Épilogue — the end"]

    /// A 60 s book with three chapters of 20 s, tagged by mutagen.
    static func chaptered(_ form: BookUnderTest.Form = .mp3) throws -> BookUnderTest {
        try BookUnderTest.chaptered("tui", seconds: 60, chapters: [(titles[0], 0), (titles[1], 20_000), (titles[2], 40_000)], form: form)
    }

    /// The now-playing pane's chapter line: "chapter 2/3: ...".
    static func chapter(_ screen: String) -> Int? {
        guard let range = screen.range(of: "chapter ") else { return nil }
        return screen[range.upperBound...].split(separator: "/").first.flatMap { Int($0) }
    }

    static func statusLine(_ screen: String, rows: Int) -> String {
        let lines = TUISession.rows(screen)
        return lines.count >= rows ? lines[rows - 2] : ""
    }

    @Test("a chaptered book: the chapters pane lists the exact titles, enter there, >, <, the 30 s skips and left move to the right place",
          arguments: BookUnderTest.Form.allCases)
    func chaptersPaneAndChapterKeys(_ form: BookUnderTest.Form) throws {
        let book = try Self.chaptered(form)
        let session = try TUISession(columns: 120, rows: 40, arguments: [book.path], environment: book.environment)
        let opened = session.waitFor { $0.contains("bookOpened") && $0.contains("chapter 1/3: Opening Credits") }
        #expect(opened.met, "\(opened.screen)")
        try session.press("7")
        let pane = session.waitFor { $0.contains(" 7 Chapters: tui") }
        #expect(pane.met, "\(pane.screen)")
        let rows = TUISession.rows(pane.screen)
        // Each title exactly, with its start and duration; the first is marked as the one heard.
        for (index, title) in Self.titles.enumerated() {
            let start = ["0:00", "0:20", "0:40"][index]
            let row = rows.first { $0.contains("\(index + 1). \(title) ") }
            #expect(row != nil, "no row for \(title):\n\(pane.screen)")
            #expect(row?.contains("\(start)   0:20") == true, "\(row ?? "")")
            #expect(row?.contains("▸1.") == (index == 0), "\(row ?? "")")
        }
        // > from the first chapter: the second.
        try session.type(">")
        let second = session.waitFor { Self.chapter($0) == 2 && (20..<40).contains(TUISession.elapsed($0) ?? -1) }
        #expect(second.met, "\(second.screen)")
        #expect(second.screen.contains("bookSeek reason=nextChapter from=") && second.screen.contains("position=20 chapter=1"),
                "\(second.screen)")
        // Enter on the third chapter in the pane plays from its start.
        try session.press("7", "Down", "Down", "Enter")
        let third = session.waitFor { Self.chapter($0) == 3 && (TUISession.elapsed($0) ?? 0) >= 40 }
        #expect(third.met, "\(third.screen)")
        #expect(third.screen.contains("bookSeek reason=chapter") && third.screen.contains("position=40 chapter=2"),
                "\(third.screen)")
        #expect(TUISession.rows(third.screen).contains { $0.contains("▸3. Épilogue — the end") }, "\(third.screen)")
        // < well into a chapter goes back to its start.
        #expect(session.waitFor(30) { (TUISession.elapsed($0) ?? 0) >= 46 }.met)
        try session.type("<")
        let restart = session.waitFor { Self.chapter($0) == 3 && (40..<46).contains(TUISession.elapsed($0) ?? -1) }
        #expect(restart.met && restart.screen.contains("reason=previousChapter"), "\(restart.screen)")
        // , and . skip 30 s in book time; left and right seek 10 s.
        let here = TUISession.elapsed(restart.screen) ?? 40
        try session.type(",")
        let back = session.waitFor { $0.contains("reason=skipBack") && Self.chapter($0) == 1 }
        #expect(back.met, "\(back.screen)")
        #expect(((here - 30)..<(here - 30 + 6)).contains(TUISession.elapsed(back.screen) ?? -1), "\(back.screen)")
        try session.type(".")
        let forward = session.waitFor { $0.contains("reason=skipForward") && Self.chapter($0) == 3 }
        #expect(forward.met, "\(forward.screen)")
        try session.press("Left")
        let seek = session.waitFor { $0.contains("reason=seekBack") && Self.chapter($0) == 2 }
        #expect(seek.met, "\(seek.screen)")
    }

    @Test("q saves the book's place; opening it again resumes there, a little earlier (smart rewind)",
          arguments: BookUnderTest.Form.allCases)
    func quitAndResume(_ form: BookUnderTest.Form) throws {
        let book = try Self.chaptered(form)
        let session = try TUISession(columns: 120, rows: 40, arguments: [book.path], environment: book.environment)
        #expect(session.waitFor(60) { (TUISession.elapsed($0) ?? 0) >= 8 }.met, "\(session.screen())")
        // The speed is the book's own: remembered with its place.
        try session.type("]")
        #expect(session.waitFor { Self.statusLine($0, rows: 40).contains("· 1.05x") }.met)
        let heard = TUISession.elapsed(session.screen()) ?? 0
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met, "\(session.screen())")
        let saved = try book.savedPosition()
        #expect(saved >= Double(heard) - 1 && saved <= Double(heard) + 3, "saved \(saved), heard \(heard)")
        // As if the listener came back a minute later (a reopening within the
        // same second would have nothing to rewind).
        try book.backdate(by: 60)
        try session.type("clear; " + session.commandLine)
        try session.press("Enter")
        let reopened = session.waitFor { $0.contains("bookOpened") && $0.contains("tui: resumed at ") }
        #expect(reopened.met, "\(reopened.screen)")
        // "tui: resumed at 23.4 s (left at 25.4 s, 2.0 s earlier)" on the command line.
        let line = TUISession.rows(reopened.screen).last ?? ""
        let numbers = line.split(separator: " ").compactMap { Double($0) }
        #expect(numbers.count == 3, "\(line)")
        let (position, left, rewind) = numbers.count == 3 ? (numbers[0], numbers[1], numbers[2]) : (-1, -1, -1)
        #expect(abs(left - saved) < 0.1, "left at \(left), saved \(saved)")
        #expect(rewind > 0 && position >= saved - 5 && abs(position + rewind - left) < 0.11, "\(line)")
        let shown = session.waitFor { (TUISession.elapsed($0) ?? -1) >= Int(position) }
        #expect(shown.met, "\(shown.screen)")
        #expect(Self.statusLine(reopened.screen, rows: 40).contains("· 1.05x"), "\(reopened.screen)")
    }

    @Test("SIGTERM and SIGHUP save the book's place before the player exits", arguments: [SIGTERM, SIGHUP])
    func signalSavesThePlace(signal: Int32) throws {
        let book = try Self.chaptered()
        let session = try TUISession(columns: 120, rows: 40, arguments: [book.path], environment: book.environment)
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 4 }.met, "\(session.screen())")
        let pid = try #require(try session.playerPID())
        let heard = TUISession.elapsed(session.screen()) ?? 0
        kill(pid, signal)
        #expect(session.waitFor("EXITED").met, "\(session.screen())")
        let saved = try book.savedPosition()
        #expect(saved >= Double(heard) && saved < Double(heard) + 3, "saved \(saved), heard \(heard)")
    }

    @Test("S sets the sleep timer and the status line counts it down; S again moves to the next setting")
    func sleepTimerInStatusLine() throws {
        let book = try Self.chaptered()
        let session = try TUISession(columns: 120, rows: 40, arguments: [book.path], environment: book.environment)
        #expect(session.waitFor { $0.contains("▶ playing") }.met)
        #expect(!Self.statusLine(session.screen(), rows: 40).contains("sleep"))
        try session.press("S")
        let set = session.waitFor { Self.statusLine($0, rows: 40).contains("sleep 5:00") || Self.statusLine($0, rows: 40).contains("sleep 4:5") }
        #expect(set.met, "\(set.screen)")
        #expect(set.screen.contains("sleep timer: 5 min"), "\(set.screen)")
        let counting = session.waitFor { Self.statusLine($0, rows: 40).contains("sleep 4:5") }
        #expect(counting.met, "the countdown did not move: \(counting.screen)")
        try session.press("S")
        #expect(session.waitFor { Self.statusLine($0, rows: 40).contains("sleep 9:5") || Self.statusLine($0, rows: 40).contains("sleep 10:00") }.met)
        // 15, 30, 45, 60 min, then the end of the chapter (under 20 s away), then off.
        for _ in 0..<5 { try session.press("S") }
        let chapterEnd = session.waitFor { Self.statusLine($0, rows: 40).contains("sleep at chapter end 0:") }
        #expect(chapterEnd.met, "\(chapterEnd.screen)")
        try session.press("S")
        let off = session.waitFor { $0.contains("sleep timer off") && !Self.statusLine($0, rows: 40).contains("sleep") }
        #expect(off.met, "\(off.screen)")
    }

    @Test("m adds a bookmark with a note; the bookmarks pane lists it, enter jumps to it, delete removes it")
    func bookmarks() throws {
        let book = try Self.chaptered()
        let session = try TUISession(columns: 120, rows: 40, arguments: [book.path], environment: book.environment)
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 5 }.met)
        try session.press("m")
        #expect(session.waitFor("bookmark note (enter for none): _").met)
        try session.type("the twist")
        try session.press("Enter")
        let added = session.waitFor { $0.contains("bookmark #1 at 0:") }
        #expect(added.met, "\(added.screen)")
        let at = try #require(Self.fields(TUISession.logLines(added.screen, containing: "bookmarkAdded").first ?? "")["position"])
        #expect(at >= 5 && at < 20, "\(added.screen)")
        try session.press("8")
        let listed = session.waitFor { $0.contains(" 8 Bookmarks: tui") && $0.contains("#1  0:0") && $0.contains("the twist") }
        #expect(listed.met, "\(listed.screen)")
        // Away to the last chapter, then back by the bookmark.
        try session.type(">>")
        #expect(session.waitFor { Self.chapter($0) == 3 }.met)
        try session.press("Enter")
        let back = session.waitFor { screen in
            Self.chapter(screen) == 1 && (TUISession.elapsed(screen).map { Double($0) >= at.rounded(.down) && Double($0) < at + 10 } ?? false)
        }
        #expect(back.met, "\(back.screen)")
        #expect(back.screen.contains("bookSeek reason=bookmark"), "\(back.screen)")
        try session.press("DC")
        let deleted = session.waitFor { $0.contains("bookmark #1 deleted") && $0.contains("no bookmarks: m adds one") }
        #expect(deleted.met, "\(deleted.screen)")
        #expect((try book.state()["bookmarks"] as? [Any])?.isEmpty ?? true)
    }

    @Test("b on a book folder in the browser opens it as a book; the books pane shows it with progress and time left, and enter there opens it; 40x12 shows the book panes")
    func browserBooksPaneAndSmallLayout() throws {
        let book = try BookUnderTest.folder("Folder Book", files: 3, seconds: 10)
        let session = try Self.browser(on: book)
        try session.press("G", "b")
        let opened = session.waitFor { $0.contains("bookOpened") && $0.contains("▶ playing") && $0.contains("chapter 1/3") }
        #expect(opened.met, "\(opened.screen)")
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 3 }.met)
        try session.press("6")
        let shelf = session.waitFor { screen in
            TUISession.rows(screen).contains { $0.contains("Folder Book") && $0.contains("% ") && $0.contains(" left") }
        }
        #expect(shelf.met, "\(shelf.screen)")
        let row = TUISession.rows(shelf.screen).first { $0.contains(" left") } ?? ""
        let percent = row.split(separator: "%").first?.split(separator: " ").last.flatMap { Int($0) } ?? -1
        #expect((10...40).contains(percent), "\(row)")
        // Enter on a file in the browser goes back to music; the book keeps its place.
        try session.press("1", "Enter")
        #expect(session.waitFor("Part 3").met, "\(session.screen())")
        try session.press("G", "Enter")
        let music = session.waitFor { $0.contains("2 Queue (3)") && $0.contains("3 ▶ Part 3") && !$0.contains("chapter 1/3") }
        #expect(music.met, "\(music.screen)")
        let kept = try book.savedPosition()
        #expect(kept >= 3, "\(kept)")
        try session.press("7")
        #expect(session.waitFor(" no book playing").met, "\(session.screen())")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
        #expect(try book.savedPosition() == kept)

        // Started on music again: the books pane lists the book from its state
        // file, and enter there opens it where it was left.
        let again = try Self.browser(on: book)
        try again.press("6")
        let listed = again.waitFor { screen in
            TUISession.rows(screen).contains { $0.contains(" Folder Book ") && $0.contains("% ") && $0.contains(" left") }
        }
        #expect(listed.met, "\(listed.screen)")
        try again.press("Enter")
        let resumed = again.waitFor { $0.contains("bookOpened") && $0.contains("Folder Book: resumed at ") }
        #expect(resumed.met, "\(resumed.screen)")

        // The small layout: the book panes by digit, drawn whole.
        let small = try TUISession(columns: 40, rows: 12, arguments: ["--book", book.path], environment: book.environment)
        #expect(small.waitFor("playing").met, "\(small.screen())")
        for (digit, title) in [("6", " 6 Books"), ("7", " 7 Chapters: Folder Book"), ("8", " 8 Bookmarks")] {
            try small.press(digit)
            let shown = small.waitFor { TUISession.rows($0).contains { $0.hasPrefix(title) } }
            #expect(shown.met, "\(title) at 40x12:\n\(shown.screen)")
            #expect(TUISession.rows(shown.screen).count == 12)
        }
        try small.press("7")
        let chapters = small.waitFor { $0.contains("▸1. Part 1") && $0.contains(" 3. Part 3") }
        #expect(chapters.met, "\(chapters.screen)")
    }

    /// The books pane shows progress from the exact length the player saved:
    /// for a VBR file without a Xing header, libmpg123's estimate (from the
    /// first frames' bitrate) is far off: 79 s for this 120 s file.
    @Test("the books pane's progress uses the saved exact length, not the decoder's estimate, for a VBR file without a Xing header")
    func booksPaneUsesTheSavedLength() throws {
        let root = ScratchFiles.makeDirectory("vbr-book")
        let folder = root + "/VBR Book"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Fixtures.silenceThenNoiseVBR(silence: 5, noise: 115, headerless: true),
                                         toPath: folder + "/Part 1.mp3")
        let book = BookUnderTest(path: folder, stateHome: root + "/state")
        // A minute of listening on the frame clock, then the sleep timer pauses: half the book.
        let run = try book.play(["--sleep", "1"])
        #expect(run.events.named("sleepTimerExpired").count == 1, "\(run.events.events)")
        #expect(abs(try book.savedPosition() - 60) < 0.01)
        #expect(abs((try book.state()["durationMilliseconds"] as? Double ?? 0) - 120_000) < 100)

        let session = try Self.browser(on: book)
        try session.press("6")
        let shelf = session.waitFor { screen in TUISession.rows(screen).contains { $0.contains("VBR Book") && $0.contains(" left") } }
        #expect(shelf.met, "\(shelf.screen)")
        let row = TUISession.rows(shelf.screen).first { $0.contains(" left") } ?? ""
        // 60 s of 120.03 s: 49% (whole percents, rounded down) and a minute left.
        #expect(row.contains(" 49%") && row.contains("1:00 left"), "\(row)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }

    /// A book opened while an alarm rings opens at once (the
    /// player's session, and the alarm's interruption, outlive what plays),
    /// and the event log's clock runs on across the switch.
    @Test("b while an alarm rings opens the book at once; after x it plays, the log's clock going on")
    func switchWhileAnAlarmRings() throws {
        let book = try BookUnderTest.folder("Alarm Book", files: 1, seconds: 30)
        let session = try Self.browser(on: book)
        // Some time on the player's clock first.
        usleep(1_500_000)
        try session.press("a")
        #expect(session.waitFor("alarmRinging").met, "\(session.screen())")
        try session.press("G", "b")
        let opened = session.waitFor("bookOpened")
        #expect(opened.met, "\(opened.screen)")
        try session.press("x")
        let ended = session.waitFor { $0.contains("alarmEnded") && $0.contains("▶ playing") }
        #expect(ended.met, "\(ended.screen)")
        try session.press("5")
        let log = session.waitFor { Self.logTime($0, of: "alarmEnded") != nil }
        let endedAt = Self.logTime(log.screen, of: "alarmEnded") ?? -1
        #expect(endedAt >= 1.5, "alarmEnded at \(endedAt):\n\(log.screen)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }

    /// The full-screen player at 120x40 on the folder that holds `book`, once
    /// its browser lists the book's folder.
    static func browser(on book: BookUnderTest) throws -> TUISession {
        let root = (book.path as NSString).deletingLastPathComponent
        let session = try TUISession(columns: 120, rows: 40, arguments: [root], environment: book.environment)
        #expect(session.waitFor((book.path as NSString).lastPathComponent + "/").met, "\(session.screen())")
        return session
    }

    /// The time an event-log row shows for the first event named `name`.
    static func logTime(_ screen: String, of name: String) -> Double? {
        for row in TUISession.rows(screen) {
            let words = row.split(separator: " ")
            guard let index = words.firstIndex(where: { $0 == name }), index > 0 else { continue }
            if let time = Double(words[index - 1]) { return time }
        }
        return nil
    }

    /// `key=value` numbers of an event-log line.
    static func fields(_ line: String) -> [String: Double] {
        var result: [String: Double] = [:]
        for word in line.split(separator: " ") {
            let parts = word.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[1]) { result[String(parts[0])] = value }
        }
        return result
    }
}
