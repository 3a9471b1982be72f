import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The full-screen player's core: the real binary in tmux, audio through a
/// PulseAudio null sink, the screen read with capture-pane. Every wait polls
/// the screen until a condition holds, with a generous timeout.
@Suite(.serialized) struct TUIAcceptanceTests {
    static let paneTitles = ["1 Browser", "2 Queue", "3 Now playing", "4 Alarms", "5 Event log"]

    /// No control characters or escape remnants, and no line wider than the terminal.
    func expectClean(_ screen: String, columns: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        for line in screen.components(separatedBy: "\n") {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0xFFFD },
                    "garbage in \(line)", sourceLocation: sourceLocation)
            #expect(displayWidth(line) <= columns, "wider than \(columns): \(line)", sourceLocation: sourceLocation)
        }
    }

    // MARK: 1

    @Test("acceptance 1: on a generated library every pane is drawn at 120x40, and each at 40x12")
    func everyPaneIsDrawn() throws {
        let library = try TaggedLibrary.make()
        let large = try TUISession(columns: 120, rows: 40, arguments: [library])
        // The whole first frame: tmux can be read while ncurses is still writing its bottom lines.
        let drawn = large.waitFor { screen in
            Self.paneTitles.allSatisfy(screen.contains) && screen.contains("Tones/") && screen.contains("? help")
        }
        #expect(drawn.met, "\(drawn.screen)")
        let lines = drawn.screen.components(separatedBy: "\n")
        #expect(lines[0].hasPrefix(" Interlude") && lines[0].hasSuffix("theme default"))
        #expect(lines[1].hasPrefix(" 1 Browser: /"))
        for folder in ["Tones/", "唐詩/", "日本/"] { #expect(drawn.screen.contains(" \(folder)"), "\(folder)") }
        #expect(lines[38].hasPrefix(" stopped · vol 100%"))
        #expect(lines[39].hasPrefix("? help"))
        expectClean(drawn.screen, columns: 120)
        // Into a folder: the MP3s show by their tag titles; enter plays one, and the queue fills.
        try large.press("Down", "Enter")
        let folder = large.waitFor { $0.contains("静夜思") && $0.contains("春晓 孟浩然の詩") }
        #expect(folder.met, "\(folder.screen)")
        try large.press("Down", "Enter")
        let playing = large.waitFor { $0.contains("2 Queue (2)") && $0.contains("▶ playing") }
        #expect(playing.met, "\(playing.screen)")
        expectClean(playing.screen, columns: 120)

        let small = try TUISession(columns: 40, rows: 12, arguments: [library])
        #expect(small.waitFor("1 Browse 2 Queue 3 Now 4 Alarms 5 Log").met)
        for (digit, title) in zip(["1", "2", "3", "4", "5"], Self.paneTitles) {
            try small.press(digit)
            let shown = small.waitFor { $0.components(separatedBy: "\n").contains { $0.hasPrefix(" " + title) } }
            #expect(shown.met, "\(title) at 40x12:\n\(shown.screen)")
            let rows = TUISession.rows(shown.screen)
            #expect(rows.count == 12 && rows[0].hasPrefix(" Interlude"), "\(shown.screen)")
            expectClean(shown.screen, columns: 40)
        }
    }

    // MARK: 2

    @Test("acceptance 2: a shows the banner and logs began; x removes it, logs ended with shouldResume, and playback goes on from where it stopped")
    func alarmKeyAndDismiss() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let session = try TUISession(columns: 200, rows: 50, arguments: ["\(library)/Tones/1 Morning.mp3"])
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 2 }.met, "not playing: \(session.screen())")
        try session.press("a")
        let banner = session.waitFor { $0.contains("audio paused, will resume after alarm") && $0.contains("type=began") }
        #expect(banner.met, "\(banner.screen)")
        #expect(banner.screen.components(separatedBy: "\n")[1] == " audio paused, will resume after alarm")
        let paused = session.waitFor("paused position=")
        let pausedLine = TUISession.logLines(paused.screen, containing: "paused position=").last ?? ""
        let pausedAt = Double(pausedLine.components(separatedBy: "position=").last ?? "")
        try session.press("x")
        let resumed = session.waitFor { !$0.contains("audio paused") && $0.contains("resumed position=") }
        #expect(resumed.met, "\(resumed.screen)")
        #expect(TUISession.logLines(resumed.screen, containing: "interruption type=ended options=[\"shouldResume\"]").count == 1)
        let resumedLine = TUISession.logLines(resumed.screen, containing: "resumed position=").last ?? ""
        let resumedAt = resumedLine.components(separatedBy: "position=").last?.split(separator: " ").first.flatMap { Double($0) }
        #expect(pausedAt != nil && resumedAt == pausedAt, "paused at \(pausedAt ?? -1), resumed at \(resumedAt ?? -1)")
        // And the clock in the now-playing pane moves on past the pause point.
        let stopped = Int(pausedAt ?? 0)
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= stopped + 2 }.met, "\(session.screen())")
    }

    // MARK: 3

    @Test("acceptance 3: s, a, x: wasSuspended true, the banner counts down, one resume after the delay")
    func suspendedSessionCountsDown() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let session = try TUISession(columns: 200, rows: 50, arguments: ["\(library)/Tones/1 Morning.mp3", "--resume-delay", "3"])
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met)
        try session.press("s")
        #expect(session.waitFor("session suspended").met)
        try session.press("a")
        #expect(session.waitFor("alarmRinging").met)
        // The alarm wakes the suspended session: its late interruption carries wasSuspended.
        #expect(session.waitFor("wasSuspended=true").met)
        try session.press("x")
        #expect(session.waitFor("alarmEnded reason=dismissed").met)
        let countdown = session.waitFor { $0.contains("resuming in") }
        #expect(countdown.met, "\(countdown.screen)")
        let bannerLine = countdown.screen.components(separatedBy: "\n")[1]
        #expect(bannerLine.contains("audio paused, will resume after") && bannerLine.contains("— resuming in"))
        #expect(countdown.screen.contains("wasSuspended=true"))
        let counted = session.waitFor { screen in
            let line = screen.components(separatedBy: "\n")[1]
            return line.contains("resuming in 1.") || line.contains("resuming in 0.")
        }
        #expect(counted.met, "the countdown did not move: \(counted.screen)")
        let resumed = session.waitFor { $0.contains("resumed position=") }
        #expect(resumed.met)
        #expect(!resumed.screen.components(separatedBy: "\n")[1].contains("audio paused"))
        let scheduled = TUISession.logLines(resumed.screen, containing: "resumeScheduled delay=3").compactMap(TUISession.logTime)
        let resumedAt = TUISession.logLines(resumed.screen, containing: "resumed position=").compactMap(TUISession.logTime)
        #expect(scheduled.count == 1 && resumedAt.count == 1, "\(resumed.screen)")
        if let start = scheduled.first, let end = resumedAt.first { #expect(end >= start + 3 - 0.01) }
        #expect(TUISession.logLines(resumed.screen, containing: "resumeRequested trigger=automatic").count == 1)
    }

    // MARK: 4

    @Test("acceptance 4: A with 3 seconds: the alarm rings about 3 s later and interrupts playback")
    func alarmInThreeSeconds() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let session = try TUISession(columns: 200, rows: 50, arguments: ["\(library)/Tones/1 Morning.mp3"])
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met)
        try session.press("A")
        #expect(session.waitFor("alarm in how many seconds?").met)
        try session.type("3")
        try session.press("Enter")
        let added = session.waitFor("alarmAdded alarm=1 in=3")
        #expect(added.met, "\(added.screen)")
        #expect(!added.screen.contains("alarmRinging"), "it rang at once")
        let rang = session.waitFor { $0.contains("alarmRinging") && $0.contains("audio paused, will resume after alarm") }
        #expect(rang.met, "\(rang.screen)")
        let addedAt = TUISession.logLines(rang.screen, containing: "alarmAdded").compactMap(TUISession.logTime).first
        let rangAt = TUISession.logLines(rang.screen, containing: "alarmRinging").compactMap(TUISession.logTime).first
        if let addedAt, let rangAt {
            // Not before it was due; how soon after is the scheduler's speed, not checked here.
            #expect(rangAt - addedAt >= 2.9, "rang \(rangAt - addedAt) s after it was set")
        } else {
            Issue.record("no times in the log: \(rang.screen)")
        }
        #expect(TUISession.logLines(rang.screen, containing: "pauseRequested").count == 1, "playback was not interrupted")
        try session.press("x")
    }

    // MARK: 5

    @Test("acceptance 5: each shipped theme loads, t cycles them, a broken one is reported with file:line, TERM=vt100 works")
    func themes() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(2)))
        let colour = #/\e\[[0-9;]*(3[0-7]|4[0-7]|38;5;[0-9]+|48;5;[0-9]+)(;[0-9;]*)?m/#
        for theme in ["default", "light", "high-contrast", "256"] {
            let session = try TUISession(columns: 120, rows: 40, arguments: [library, "--theme", theme])
            let shown = session.waitFor { $0.components(separatedBy: "\n").first?.hasSuffix("theme \(theme)") == true }
            #expect(shown.met, "\(theme): \(shown.screen)")
            #expect(!shown.screen.contains("problem"), "\(theme) reported problems: \(shown.screen)")
            #expect(session.screen(escapes: true).contains(colour), "\(theme) drew no colours")
            if theme == "default" {
                try session.press("t")
                #expect(session.waitFor("theme 256").met, "t did not move to the next theme")
                try session.press("t")
                #expect(session.waitFor("theme high-contrast").met)
            }
        }

        let broken = try TUISession(columns: 200, rows: 40, arguments: [library, "--theme", "broken"]) { config in
            try "banner = white red bold\ntitle-bar = purple black\n".write(toFile: "\(config)/interlude/themes/broken.theme",
                                                                          atomically: true, encoding: .utf8)
        }
        let reported = broken.waitFor("broken.theme:2:")
        #expect(reported.met, "\(reported.screen)")
        #expect(reported.screen.components(separatedBy: "\n").first?.hasSuffix("theme default (broken has errors)") == true)
        #expect(reported.screen.contains("theme broken: 1 problem, using the default theme; "))

        let mono = try TUISession(columns: 120, rows: 40, arguments: [library], environment: ["TERM": "vt100"])
        let drawn = mono.waitFor { screen in Self.paneTitles.allSatisfy(screen.contains) }
        #expect(drawn.met, "\(drawn.screen)")
        let escaped = mono.screen(escapes: true)
        #expect(!escaped.contains(colour), "colours on a vt100")
        #expect(escaped.contains("\u{1B}[7m") || escaped.contains(";7m"), "no reverse video for the selection and bars")
        expectClean(drawn.screen, columns: 120)
    }

    @Test("a keys file rebinds keys and its bad lines are reported with file:line")
    func keysFile() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let session = try TUISession(columns: 200, rows: 50, arguments: ["\(library)/Tones/1 Morning.mp3"]) { config in
            try "bind w alarm-fire-test\nbind v frobnicate\n".write(toFile: "\(config)/interlude/keys", atomically: true,
                                                                  encoding: .utf8)
        }
        // The same line goes to standard error before the screen is drawn (it stays in
        // the terminal after quitting): wait for the screen's own message, not that line.
        let reported = session.waitFor { screen in
            screen.contains("keys: 1 line skipped") && screen.contains("interlude/keys:2: unknown action 'frobnicate'")
        }
        #expect(reported.met, "\(reported.screen)")
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met)
        try session.press("w")
        #expect(session.waitFor("audio paused, will resume after alarm").met, "the rebound key did nothing")
    }

    // MARK: 6

    @Test("acceptance 6: twenty resizes in two seconds, then the layout fits the final size")
    func twentyResizes() throws {
        let library = try TaggedLibrary.make()
        let session = try TUISession(columns: 120, rows: 40, arguments: [library])
        #expect(session.waitFor { screen in Self.paneTitles.allSatisfy(screen.contains) }.met)
        let sizes = [(80, 24), (200, 60), (40, 12), (30, 8), (150, 45), (60, 20), (120, 40), (41, 13), (100, 30), (79, 23)]
        for index in 0..<20 {
            let (columns, rows) = sizes[index % sizes.count]
            try session.resize(columns: columns, rows: rows)
            usleep(100_000)
        }
        try session.resize(columns: 100, rows: 30)
        let settled = session.waitFor { screen in
            let lines = TUISession.rows(screen)
            return lines.count == 30 && lines[0].hasPrefix(" Interlude") && lines[0].hasSuffix("theme default")
                && lines[28].hasPrefix(" stopped") && Self.paneTitles.allSatisfy(screen.contains)
        }
        #expect(settled.met, "final layout at 100x30:\n\(settled.screen)")
        #expect(!settled.screen.contains("EXITED"))
        expectClean(settled.screen, columns: 100)
        // The split layout's separator sits at two fifths of the width on every pane row.
        let separatorRows = settled.screen.components(separatedBy: "\n").filter { $0.contains("│") }
        #expect(separatorRows.count >= 10)
        for line in separatorRows {
            let before = line[..<line.range(of: "│")!.lowerBound]
            #expect(displayWidth(String(before)) == 40, "separator misplaced: \(line)")
        }
        try session.resize(columns: 30, rows: 8)
        #expect(session.waitFor("terminal too small").met)
        try session.resize(columns: 120, rows: 40)
        #expect(session.waitFor { screen in Self.paneTitles.allSatisfy(screen.contains) }.met)
    }

    // MARK: 7

    @Test("acceptance 7: Chinese and Japanese titles from the tags line up in the browser and the queue")
    func cjkTitlesLineUp() throws {
        let library = try TaggedLibrary.make()
        let session = try TUISession(columns: 120, rows: 40, arguments: ["\(library)/唐詩/1.mp3", "\(library)/唐詩/2.mp3",
                                                                           "\(library)/日本/1.mp3", "\(library)/日本/2.mp3",
                                                                           "\(library)/Tones/1 Morning.mp3"])
        let drawn = session.waitFor { $0.contains("静夜思") && $0.contains("ふるさと 🎵") && $0.contains("春晓 孟浩然の詩") }
        #expect(drawn.met, "\(drawn.screen)")
        // The browser shows the folder of the first file, with tag titles.
        try session.press("1")
        let browser = session.waitFor { screen in
            let rows = TUISession.rows(screen)
            return rows.count == 40 && rows[2].hasPrefix(" ../") && rows[3].hasPrefix(" 静夜思 ") && rows[4].hasPrefix(" 春晓 孟浩然の詩 ")
        }
        #expect(browser.met, "\(browser.screen)")
        // Every row that has the separator has it at column 48, whatever the titles' scripts.
        let rows = browser.screen.components(separatedBy: "\n").filter { $0.contains("│") }
        #expect(rows.count >= 20)
        for line in rows {
            let before = line[..<line.range(of: "│")!.lowerBound]
            #expect(displayWidth(String(before)) == 48, "misaligned: \(line)")
        }
        // Queue rows: the titles start in the same column, and no row is wider than the screen.
        let queueRows = browser.screen.components(separatedBy: "\n").filter {
            ["静夜思", "春晓", "さくらさくら", "ふるさと", "Morning"].contains(where: $0.contains)
        }
        let titleColumns = Set(queueRows.compactMap { line -> Int? in
            guard let bar = line.range(of: "│") else { return nil }
            let right = String(line[bar.upperBound...])
            guard let start = right.firstIndex(where: { !" 0123456789▶‖■".contains($0) }) else { return nil }
            return displayWidth(String(right[..<start]))
        })
        #expect(titleColumns.count == 1, "queue titles start in different columns: \(titleColumns)")
        expectClean(browser.screen, columns: 120)
    }

    // MARK: Terminal hygiene

    @Test("SIGINT and SIGTERM give the terminal back; Ctrl-Z restores it and fg redraws")
    func terminalIsRestored() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let mp3 = "\(library)/Tones/1 Morning.mp3"
        let session = try TUISession(columns: 120, rows: 40, arguments: [mp3])
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met)
        try session.press("C-z")
        let stopped = session.waitFor("Stopped")
        #expect(stopped.met, "\(stopped.screen)")
        #expect(!stopped.screen.contains("1 Browser"), "the screen was not given back")
        // MO''DE: the typed line does not itself contain the marker the output has.
        try session.type("stty -a | grep -o -- '-\\?icanon' | sed 's/^/MO''DE /'")
        try session.press("Enter")
        let mode = session.waitFor { $0.contains("MODE icanon") || $0.contains("MODE -icanon") }
        #expect(mode.met && mode.screen.contains("MODE icanon") && !mode.screen.contains("MODE -icanon"),
                "the terminal stayed raw: \(mode.screen)")
        try session.type("fg")
        try session.press("Enter")
        let redrawn = session.waitFor { screen in Self.paneTitles.allSatisfy(screen.contains) && screen.contains("continued") }
        #expect(redrawn.met, "not redrawn after fg: \(redrawn.screen)")
        try session.press("C-c")
        let interrupted = session.waitFor("EXITED")
        #expect(interrupted.met)
        #expect(!interrupted.screen.contains("1 Browser"), "the UI stayed on screen after SIGINT")

        try session.type("clear; stty -a | grep -o -- '-\\?icanon'; " + session.commandLine + "; echo GONE $?")
        try session.press("Enter")
        #expect(session.waitFor { screen in Self.paneTitles.allSatisfy(screen.contains) }.met)
        let pid = try #require(try session.playerPID())
        kill(pid, SIGTERM)
        let terminated = session.waitFor("GONE")
        #expect(terminated.met)
        try session.type("stty -a | grep -o -- '-\\?icanon'")
        try session.press("Enter")
        #expect(session.waitFor { $0.components(separatedBy: "\n").filter { $0 == "icanon" }.count >= 2 }.met,
                "the terminal stayed raw after SIGTERM: \(session.screen())")
    }
}

extension TUIAcceptanceTests {
    @Test("the alarms pane adds, edits, disables and deletes alarms from the keyboard, and they persist")
    func alarmsPane() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let session = try TUISession(columns: 200, rows: 50, arguments: [library])
        #expect(session.waitFor("4 Alarms").met)
        try session.press("o")
        #expect(session.waitFor("new alarm (07:30, in 10m):").met)
        try session.type("07:30")
        try session.press("Enter")
        #expect(session.waitFor("#1 on ").met, "\(session.screen())")
        try session.press("o")
        try session.type("in 2h")
        try session.press("Enter")
        #expect(session.waitFor("#2 on ").met)
        try session.press("4", "T")
        #expect(session.waitFor("#1 off ").met, "enable/disable did nothing: \(session.screen())")
        try session.press("Down", "E")
        #expect(session.waitFor("alarm 2 at: in ").met)
        for _ in 0..<12 { try session.press("BSpace") }
        try session.type("08:15")
        try session.press("Enter")
        let edited = session.waitFor("08:15:00")
        #expect(edited.met, "\(edited.screen)")
        // The same alarm, rescheduled: still #2, and no third one.
        let row = edited.screen.split(separator: "\n").first { $0.contains("08:15:00") } ?? ""
        #expect(row.contains("#2 on "), "\(edited.screen)")
        #expect(!edited.screen.contains("#3 "), "the edit added an alarm: \(edited.screen)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
        let alarmsFile = "\(session.directory)/state/interlude/alarms.json"
        #expect(try Self.savedClockTimes(alarmsFile) == ["07:30", "08:15"])

        // Again: the alarms are back from alarms.json; delete one.
        try session.type(session.commandLine + "; echo AGAIN $?")
        try session.press("Enter")
        #expect(session.waitFor { $0.contains("#1 off ") && $0.contains("08:15:00") }.met, "\(session.screen())")
        try session.press("4", "d")
        #expect(session.waitFor { !$0.contains("#1 off ") }.met)
        try session.press("q")
        #expect(session.waitFor("AGAIN 0").met)
        #expect(try Self.savedClockTimes(alarmsFile) == ["08:15"])
    }
}

extension TUIAcceptanceTests {
    /// The clock times (HH:MM) of the alarms in an alarms.json.
    static func savedClockTimes(_ path: String) throws -> Set<String> {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        var times: Set<String> = []
        func visit(_ value: Any) {
            if let object = value as? [String: Any] {
                if let hour = object["hour"] as? Int, let minute = object["minute"] as? Int {
                    times.insert(String(format: "%02d:%02d", hour, minute))
                }
                object.values.forEach(visit)
            } else if let array = value as? [Any] {
                array.forEach(visit)
            }
        }
        visit(json)
        return times
    }
}

extension TUIAcceptanceTests {
    @Test("c, N and D drive a call, a ducking chime and a lost device from the keyboard; space resumes after the device")
    func callChimeAndDeviceKeys() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let session = try TUISession(columns: 200, rows: 50, arguments: ["\(library)/Tones/1 Morning.mp3"])
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met)
        try session.press("c")
        let call = session.waitFor { $0.contains("callStarted") && $0.contains("audio paused, will resume after the call") }
        #expect(call.met, "\(call.screen)")
        try session.press("c")
        let ended = session.waitFor { $0.contains("callEnded") && $0.contains("resumed position=") && !$0.contains("audio paused") }
        #expect(ended.met, "\(ended.screen)")
        try session.press("N")
        let ducked = session.waitFor { $0.contains("ducking type=began") && $0.contains("ducking type=ended") }
        #expect(ducked.met, "\(ducked.screen)")
        #expect(!ducked.screen.contains("audio paused"), "a chime ducks, it does not pause")
        try session.press("D")
        let lost = session.waitFor("audio paused — press space to resume (the output device was lost)")
        #expect(lost.met, "\(lost.screen)")
        try session.press("Space")
        let lostAt = TUISession.logLines(lost.screen, containing: "deviceLostSimulated").compactMap(TUISession.logTime).first ?? 0
        let back = session.waitFor { screen in
            let resumes = TUISession.logLines(screen, containing: "resumed position=").compactMap(TUISession.logTime)
            return resumes.contains { $0 > lostAt } && !screen.contains("audio paused")
        }
        #expect(back.met, "\(back.screen)")
    }
}

extension TUIAcceptanceTests {
    @Test("] and [ change the speed while playing, and --speed sets the start")
    func speedKeys() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let session = try TUISession(columns: 200, rows: 50, arguments: ["\(library)/Tones/1 Morning.mp3", "--speed", "1.5"])
        #expect(session.waitFor { $0.contains("▶ playing") && $0.contains("· 1.5x") }.met, "\(session.screen())")
        try session.press("]")
        #expect(session.waitFor { $0.contains("speed speed=1.550") && $0.contains("· 1.55x") }.met, "\(session.screen())")
        for _ in 0..<11 { try session.press("[") }
        #expect(session.waitFor { TUISession.rows($0)[48] == " playing · vol 100%" }.met, "normal speed shows no speed: \(session.screen())")
    }
}

extension TUIAcceptanceTests {
    @Test("a crash (SIGSEGV, SIGABRT) still gives the terminal back", arguments: [SIGSEGV, SIGABRT])
    func crashRestoresTheTerminal(signal: Int32) throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let session = try TUISession(columns: 120, rows: 40, arguments: ["\(library)/Tones/1 Morning.mp3"])
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met)
        let pid = try #require(try session.playerPID())
        kill(pid, signal)
        let exited = session.waitFor("EXITED")
        #expect(exited.met, "\(exited.screen)")
        #expect(!exited.screen.contains("1 Browser"), "the UI stayed on screen: \(exited.screen)")
        #expect(exited.screen.contains("EXITED \(128 + signal)"), "\(exited.screen)")
        try session.type("stty -a | grep -o -- '-\\?icanon' | sed 's/^/MO''DE /'")
        try session.press("Enter")
        let mode = session.waitFor { $0.contains("MODE icanon") || $0.contains("MODE -icanon") }
        #expect(mode.screen.contains("MODE icanon") && !mode.screen.contains("MODE -icanon"), "\(mode.screen)")
    }
}
