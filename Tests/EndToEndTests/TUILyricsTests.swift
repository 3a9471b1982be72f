import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Lyrics in the real full-screen
/// player in tmux playing to a PulseAudio null sink: the lyrics pane's
/// highlighted line (the playing row's colour, read from `capture-pane -e`)
/// is the line whose time the heard position (the player's own `status`,
/// never the wall clock) last passed, across a seek, at 1.5x and across an
/// alarm; bad, unsorted, legacy-encoded and huge lyrics give one line and
/// leave the rest of the screen as it was.
@Suite(.serialized)
struct TUILyricsTests {
    /// Lines every 2 s from 1 s, each text unique and found on screen by it.
    static let lineTimes = (0..<40).map { 1000 + $0 * 2000 }
    static func lineText(_ index: Int) -> String { String(format: "Lyric line %02d", index) }

    static func lrc(order: [Int]? = nil) -> String {
        let indices = order ?? Array(lineTimes.indices)
        return "[ar:Interlude]\n[ti:Tone]\n" + indices.map { index in
            let milliseconds = lineTimes[index]
            return String(format: "[%02d:%02d.%02d]", milliseconds / 60000, milliseconds / 1000 % 60, milliseconds % 1000 / 10)
                + lineText(index)
        }.joined(separator: "\n") + "\n"
    }

    /// The index of the line heard at `seconds`: the last whose time was passed.
    static func expectedLine(_ seconds: Double) -> Int? {
        let milliseconds = Int((seconds * 1000).rounded())
        return lineTimes.lastIndex { $0 <= milliseconds }
    }

    /// A folder with a 90 s tone and, beside it, `lrc` as `Tone.lrc` (bytes as given).
    static func folder(lrc: [UInt8]?, name: String) throws -> (folder: String, audio: String) {
        let folder = ScratchFiles.makeDirectory("lyrics-\(name)")
        let audio = folder + "/Tone.mp3"
        try FileManager.default.copyItem(atPath: try Fixtures.mp3(.tone(frequency: 330), seconds: 90, channels: 1), toPath: audio)
        if let lrc { try Data(lrc).write(to: URL(fileURLWithPath: folder + "/Tone.lrc")) }
        return (folder, audio)
    }

    // MARK: Reading the screen

    /// The lyric lines on screen, and which of them is drawn as the playing row (yellow or bold, as the default theme's `playing-row`).
    static func highlighted(_ escaped: String) -> (shown: Set<Int>, highlighted: [Int]) {
        var shown = Set<Int>(), highlighted: [Int] = []
        for row in escaped.components(separatedBy: "\n") {
            let cells = styled(row)
            let text = String(cells.map(\.character))
            for index in lineTimes.indices {
                guard let range = text.range(of: lineText(index)) else { continue }
                shown.insert(index)
                let cell = cells[text.distance(from: text.startIndex, to: range.lowerBound)]
                if cell.bold && cell.foreground == 33 { highlighted.append(index) }
            }
        }
        return (shown, highlighted)
    }

    /// A captured row's characters with the SGR state each is drawn in.
    static func styled(_ row: String) -> [(character: Character, bold: Bool, foreground: Int?)] {
        var cells: [(character: Character, bold: Bool, foreground: Int?)] = []
        var bold = false
        var foreground: Int?
        var characters = Array(row)
        var index = 0
        while index < characters.count {
            if characters[index] == "\u{1B}", index + 1 < characters.count, characters[index + 1] == "[" {
                var end = index + 2
                while end < characters.count, !(characters[end].isLetter) { end += 1 }
                guard end < characters.count else { break }
                if characters[end] == "m" {
                    let codes = String(characters[(index + 2)..<end]).split(separator: ";", omittingEmptySubsequences: false)
                        .map { Int($0) ?? 0 }
                    var position = 0
                    while position < codes.count {
                        switch codes[position] {
                        case 0: bold = false; foreground = nil
                        case 1: bold = true
                        case 22: bold = false
                        case 30...37, 90...97: foreground = codes[position]
                        case 39: foreground = nil
                        case 38: position += codes.count > position + 1 && codes[position + 1] == 5 ? 2 : 4
                        case 48: position += codes.count > position + 1 && codes[position + 1] == 5 ? 2 : 4
                        default: break
                        }
                        position += 1
                    }
                }
                index = end + 1
                continue
            }
            cells.append((characters[index], bold, foreground))
            index += 1
        }
        characters.removeAll()
        return cells
    }

    static func elapsed(_ session: TUISession) throws -> (seconds: Double, state: String, ringing: Bool) {
        let status = try Remote.status(session.runtimeDirectory)
        return ((status["elapsed"] as? Double) ?? -1, (status["state"] as? String) ?? "", (status["alarmRinging"] as? Bool) ?? false)
    }

    /// While playing: every frame shows the line of the heard position it
    /// shows beside it (the now-playing clock, whole seconds from the same
    /// snapshot; the lines' times are whole seconds, so the clock's second
    /// names the line exactly), until the highlight has moved over `lines`
    /// lines. A frame is judged only when two captures 200 ms apart agree:
    /// ncurses writes a frame in pieces (its output buffer holds about rows
    /// times columns bytes, less than a redraw of the lyrics pane with its
    /// colours), the pane above the clock first, so a capture between two
    /// pieces shows the new highlight beside the old clock, and on a loaded
    /// machine the next piece was seen to come after two back-to-back
    /// captures. Returns the last line seen.
    @discardableResult
    static func expectFollows(_ session: TUISession, _ step: String, lines: Int = 3,
                              sourceLocation: SourceLocation = #_sourceLocation) throws -> Int? {
        var seen: [Int] = []
        var mismatch: String?
        let met = try Remote.waitUntil(40) {
            let first = session.screen(escapes: true)
            usleep(200_000)
            guard first == session.screen(escapes: true) else { return false }
            let plain = first.components(separatedBy: "\n").map { String(styled($0).map(\.character)) }.joined(separator: "\n")
            guard let clock = TUISession.elapsed(plain) else { return false }
            let expected = expectedLine(Double(clock))
            let lit = highlighted(first)
            guard lit.highlighted == (expected.map { [$0] } ?? []) else {
                mismatch = "clock \(clock) s, expected \(expected.map(lineText) ?? "none"), highlighted "
                    + "\(lit.highlighted.map(lineText)) (status says \(try elapsed(session).seconds) s)\n\(plain)"
                return true
            }
            if let expected, seen.last != expected { seen.append(expected) }
            return seen.count >= lines
        }
        #expect(mismatch == nil, "\(step): \(mismatch ?? "")", sourceLocation: sourceLocation)
        #expect(met, "\(step): the highlight went over \(seen.map(lineText)) only", sourceLocation: sourceLocation)
        return seen.last
    }

    /// While the heard position stands still (paused, an alarm ringing): the
    /// highlight is the line of that position, exactly, on every capture.
    static func expectStill(_ session: TUISession, _ step: String, captures: Int = 8,
                            sourceLocation: SourceLocation = #_sourceLocation) throws -> Double {
        // The pause's fade ends on its frame: wait until two readings agree.
        var previous = -1.0
        let settled = try Remote.waitUntil(20) {
            let now = try elapsed(session).seconds
            defer { previous = now }
            return now == previous
        }
        #expect(settled, "\(step): the heard position did not stop", sourceLocation: sourceLocation)
        let still = try elapsed(session).seconds
        let expected = expectedLine(still).map { [$0] } ?? []
        // The frame drawn after the stop may be one redraw away; from then on it must hold.
        let drawn = session.waitFor(5) { _ in highlighted(session.screen(escapes: true)).highlighted == expected }
        let first = "\(step): heard \(still) s, expected \(expected.map(lineText)), highlighted "
            + "\(highlighted(session.screen(escapes: true)).highlighted.map(lineText))\n\(drawn.screen)"
        #expect(drawn.met, "\(first)", sourceLocation: sourceLocation)
        for _ in 0..<captures {
            let screen = session.screen(escapes: true)
            let now = try elapsed(session).seconds
            let message = "\(step): heard \(now) s (stood at \(still) s), highlighted \(highlighted(screen).highlighted.map(lineText))"
            #expect(now == still && highlighted(screen).highlighted == expected, "\(message)", sourceLocation: sourceLocation)
            usleep(100_000)
        }
        return still
    }

    // MARK: Acceptance 3

    @Test("acceptance 3: the highlighted LRC line is the one the heard position passed, across a seek, at 1.5x and an alarm")
    func lrcFollowsTheHeardPosition() throws {
        let (_, audio) = try Self.folder(lrc: Array(Self.lrc().utf8), name: "lrc")
        let session = try TUISession(columns: 120, rows: 40, arguments: [audio])
        #expect(Remote.waitForPlayer(session.runtimeDirectory))
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met)
        try session.press("L")
        let pane = session.waitFor { $0.contains("L Lyrics (Tone.lrc, timed)") }
        #expect(pane.met, "\(pane.screen)")
        try Self.expectFollows(session, "playing from the start")

        // A pause: the highlight stands with the sound.
        try session.press("space")
        let paused = try Self.expectStill(session, "paused")
        try session.press("space")
        #expect(try Remote.waitUntil(10) { try Self.elapsed(session).seconds > paused + 0.5 })

        // A seek forward, past lines no one heard, and one back.
        try Remote.run(session.runtimeDirectory, ["seek-to", "41.3"]).check()
        let afterSeek = try Self.expectFollows(session, "after seek-to 41.3")
        #expect((afterSeek ?? 0) >= 20, "the highlight did not go to the seek's line")
        try Remote.run(session.runtimeDirectory, ["seek-to", "6.5"]).check()
        let back = try Self.expectFollows(session, "after seek-to 6.5")
        #expect((back ?? 99) < 10)

        // 1.5x: the source's time runs faster than the wall clock; the highlight follows the source's.
        try Remote.run(session.runtimeDirectory, ["speed", "1.5"]).check()
        #expect(session.waitFor { $0.contains("1.5x") }.met)
        let start = try Self.elapsed(session).seconds
        try Self.expectFollows(session, "at 1.5x")
        #expect(try Remote.waitUntil(20) { try Self.elapsed(session).seconds > start + 4.5 })
        try Self.expectFollows(session, "at 1.5x, lines later")
        try session.press("space")
        _ = try Self.expectStill(session, "paused at 1.5x", captures: 3)
        try session.press("space")

        // An alarm: playback pauses while it rings and the highlight stands; after it, both go on.
        try Remote.run(session.runtimeDirectory, ["alarm-in", "1"]).check()
        #expect(try Remote.waitUntil(20) { try Self.elapsed(session).ringing }, "the alarm did not ring")
        let rung = try Self.expectStill(session, "while the alarm rings")
        let state = try Self.elapsed(session)
        #expect(state.ringing && state.state != "playing", "playback went on under the alarm: \(state)")
        try Remote.run(session.runtimeDirectory, ["alarm-dismiss"]).check()
        #expect(try Remote.waitUntil(20) { try Self.elapsed(session).seconds > rung + 1 }, "playback did not go on after the alarm")
        try Self.expectFollows(session, "after the alarm")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }

    @Test("acceptance 3: a SYLT written by mutagen is highlighted by the heard position, across a seek")
    func syltFollowsTheHeardPosition() throws {
        let (folder, audio) = try Self.folder(lrc: nil, name: "sylt")
        let spec: [String: Any] = ["kind": "sylt", "path": audio, "format": 2,
                                   "lines": Self.lineTimes.indices.reversed().map { [Self.lineText($0), Self.lineTimes[$0]] }]
        let specPath = folder + "/spec.json"
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: specPath))
        try ProcessRunner.run("python3", [InterludeBinary.packageRoot + "/Tests/Fixtures/write_lyrics.py", specPath],
                              environment: ["PYTHONPATH": InterludeBinary.packageRoot + "/build/python"]).check()
        let session = try TUISession(columns: 120, rows: 40, arguments: [audio])
        #expect(Remote.waitForPlayer(session.runtimeDirectory))
        try session.press("L")
        #expect(session.waitFor("L Lyrics (ID3 SYLT, timed)").met)
        try Self.expectFollows(session, "SYLT playing")
        try Remote.run(session.runtimeDirectory, ["seek-to", "33"]).check()
        let line = try Self.expectFollows(session, "SYLT after seek-to 33")
        #expect((line ?? 0) >= 15)
        try session.press("space")
        _ = try Self.expectStill(session, "SYLT paused", captures: 3)
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }

    // MARK: Acceptance 4 (lyrics)

    @Test("bad and unsorted LRC times in Windows-1252: one line naming the file and line, sorted lines, the text right, the rest unaffected")
    func badUnsortedLegacyLRC() throws {
        // Unsorted, with two bad times, and "café’s" in Windows-1252.
        var text = Array("[00:05.00]third\n[00:01.00]caf".utf8) + [0xE9, 0x92] + Array("s first\n[00:61.00]bad\n".utf8)
        text += Array("[00:03.00]second\n[0x:00]\n[00:08.00]fourth\n".utf8)
        let (_, audio) = try Self.folder(lrc: text, name: "bad")
        let session = try TUISession(columns: 120, rows: 40, arguments: [audio])
        #expect(Remote.waitForPlayer(session.runtimeDirectory))
        let before = session.waitFor { $0.contains("Tone") && $0.contains("playing") }
        #expect(before.met)
        try session.press("L")
        let shown = session.waitFor { $0.contains("Tone.lrc line 3: bad time [00:61.00], dropped (and 1 more)") }
        #expect(shown.met, "\(shown.screen)")
        let lines = TUISession.rows(shown.screen)
        let order = ["café’s first", "second", "third", "fourth"].map { word in lines.firstIndex { $0.contains(" " + word) } }
        #expect(order.allSatisfy { $0 != nil } && order == order.sorted { ($0 ?? 0) < ($1 ?? 0) }, "\(shown.screen)")
        #expect(lines.filter { $0.contains("bad time") }.count == 1)
        // The rest of the screen: the now-playing pane, the status line and the title as before.
        #expect(shown.screen.contains("3 Now playing") && shown.screen.contains("vol 100%"), "\(shown.screen)")
        #expect(lines.first?.contains("Interlude") == true)
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }

    @Test("a 30 MB LRC is read to its limit: one line, memory bounded, the rest of the screen unaffected")
    func hugeLRC() throws {
        var line = Array("[00:01.00]".utf8) + [UInt8](repeating: 0x7A, count: 89) + [0x0A]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.count * 300_000)
        for _ in 0..<300_000 { bytes += line }
        line.removeAll()
        let (_, audio) = try Self.folder(lrc: bytes, name: "huge")
        bytes.removeAll()
        let session = try TUISession(columns: 120, rows: 40, arguments: [audio])
        #expect(Remote.waitForPlayer(session.runtimeDirectory))
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met)
        guard let pid = try session.playerPID() else {
            Issue.record("no player process")
            return
        }
        let resident = Remote.residentKilobytes(pid)
        try session.press("L")
        let shown = session.waitFor { $0.contains("Tone.lrc: longer than 2 MB; only its first 2 MB are read") }
        #expect(shown.met, "\(shown.screen)")
        #expect(TUISession.rows(shown.screen).filter { $0.contains("Tone.lrc:") }.count == 1)
        // What is kept is bounded by the 2 MB read and the 1 MB of text; the file is 30 MB.
        let grown = Remote.residentKilobytes(pid) - resident
        #expect(grown < 20_000, "the player grew by \(grown) kB reading a 30 MB LRC")
        #expect(shown.screen.contains("3 Now playing") && shown.screen.contains("vol 100%"))
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }

    @Test("no lyrics: the pane says so in one line")
    func noLyrics() throws {
        let (_, audio) = try Self.folder(lrc: nil, name: "none")
        let session = try TUISession(columns: 120, rows: 40, arguments: [audio])
        #expect(Remote.waitForPlayer(session.runtimeDirectory))
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met)
        try session.press("L")
        let shown = session.waitFor { $0.contains("L Lyrics") && $0.contains(" no lyrics") }
        #expect(shown.met, "\(shown.screen)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }
}
