import Foundation
import Testing
import TestSupport
import TUI

/// A switch between music and a book is a setting of
/// the one player, so it is done at once whatever holds playback. The new
/// playback waits, paused by the interruption (the banner says so), and
/// resumes when the interruption ends, as the policy says: the book from its
/// saved place less smart rewind, and nothing more for the wait.
@Suite(.serialized) struct TUISwitchTests {
    /// A folder with a book (one 120 s file, left at 60 s ten minutes ago:
    /// 15.53 s of smart rewind) and a music file beside it.
    struct Shelf {
        let root: String
        let book: BookUnderTest
        /// ease(600/3600) * 30 s = (1 - (5/6)^4) * 30 s.
        static let rewind: Double = { let r = 5.0 / 6.0; return (1 - r * r * r * r) * 30 }()

        static func make() throws -> Shelf {
            let made = try BookUnderTest.folder("Switch Book", files: 1, seconds: 120)
            let root = ScratchFiles.makeDirectory("switch")
            let book = BookUnderTest(path: root + "/Switch Book", stateHome: made.stateHome)
            try FileManager.default.copyItem(atPath: made.path, toPath: book.path)
            try FileManager.default.copyItem(atPath: try Fixtures.mp3(.tone(frequency: 330), seconds: 60),
                                             toPath: root + "/Tune.mp3")
            let first = try book.play(["--sleep", "1"])
            #expect(first.process.exitStatus == 0, "\(first.process.summary)")
            #expect(try book.savedPosition() == 60)
            try book.backdate(by: 600)
            return Shelf(root: root, book: book)
        }

        /// The full-screen player on the folder, once its browser lists the book and the tune.
        func player() throws -> TUISession {
            let session = try TUISession(columns: 200, rows: 50, arguments: [root], environment: book.environment)
            #expect(session.waitFor { $0.contains("Switch Book/") && $0.contains("Tune") }.met, "\(session.screen())")
            return session
        }
    }

    /// The banner's line (the second row of the screen).
    static func banner(_ screen: String) -> String {
        let rows = TUISession.rows(screen)
        return rows.count > 1 ? rows[1] : ""
    }

    static func status(_ session: TUISession) -> [String: Any] {
        (try? Remote.status(session.runtimeDirectory)) ?? [:]
    }

    static func bookTitle(_ status: [String: Any]) -> String? {
        (status["book"] as? [String: Any])?["title"] as? String
    }

    /// Music plays, an alarm rings; `open` opens the book. It opens at once,
    /// held by the alarm at its place less smart rewind; after x it plays from there.
    func bookOpenedDuringAnAlarm(_ open: (TUISession, Shelf) throws -> Void) throws {
        let shelf = try Shelf.make()
        let session = try shelf.player()
        try session.press("G", "Enter")
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 && $0.contains("▶ playing") }.met, "\(session.screen())")
        try session.press("a")
        let ringing = session.waitFor { Self.banner($0) == " " + Banner.willResumeText }
        #expect(ringing.met, "\(ringing.screen)")

        try open(session, shelf)
        let opened = session.waitFor { $0.contains("bookOpened") }
        #expect(opened.met, "\(opened.screen)")
        #expect(!opened.screen.contains("snooze (z) or dismiss (x) it first"), "\(opened.screen)")
        var held: [String: Any] = [:]
        #expect(Remote.waitUntil {
            held = Self.status(session)
            return Self.bookTitle(held) == "Switch Book" && held["state"] as? String == "interrupted"
        }, "\(held)")
        #expect(held["alarmRinging"] as? Bool == true, "\(held)")
        let start = try #require(held["elapsed"] as? Double)
        #expect(abs(start - (60 - Shelf.rewind)) < 0.2, "held at \(start), expected 60 - \(Shelf.rewind)")
        // The banner tells the truth: the alarm holds the book, which resumes after it.
        let still = session.waitFor { Self.banner($0) == " " + Banner.willResumeText }
        #expect(still.met, "\(still.screen)")

        try session.press("x")
        var playing: [String: Any] = [:]
        #expect(Remote.waitUntil {
            playing = Self.status(session)
            return playing["state"] as? String == "playing" && (playing["elapsed"] as? Double ?? 0) > start + 0.5
        }, "\(playing)")
        #expect(Self.bookTitle(playing) == "Switch Book")
        // From the place it was opened at, and no further rewind for the time the alarm held it.
        let resumed = session.waitFor { !TUISession.logLines($0, containing: "resumed position=").isEmpty }
        let line = TUISession.logLines(resumed.screen, containing: "resumed position=").last ?? ""
        let position = line.components(separatedBy: "position=").last?.split(separator: " ").first.flatMap { Double($0) }
        #expect(position.map { abs($0 - start) < 0.002 } == true, "\(line) against \(start)")
        #expect(!session.waitFor(0.5) { Self.banner($0).contains("audio paused") }.met)
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }

    @Test("b on a book while an alarm rings during music opens it at once, held by the alarm; after x it plays from its place less smart rewind")
    func bookFromTheKeysWhileAnAlarmRings() throws {
        try bookOpenedDuringAnAlarm { session, _ in try session.press("G", "Up", "b") }
    }

    @Test("open-book on the socket while an alarm rings during music opens it at once, held by the alarm; after x it plays from its place less smart rewind")
    func bookFromTheSocketWhileAnAlarmRings() throws {
        try bookOpenedDuringAnAlarm { session, shelf in
            let reply = try Remote.run(session.runtimeDirectory, ["open-book", shelf.book.path])
            #expect(reply.succeeded, "\(reply.summary)")
            #expect(reply.stdoutText.contains("opening Switch Book"), "\(reply.summary)")
        }
    }

    @Test("music chosen while a call interrupts a book plays at once in its place, held by the call, and starts when the call ends; the book keeps its place")
    func musicChosenDuringACallOnABook() throws {
        let shelf = try Shelf.make()
        let session = try shelf.player()
        try session.press("G", "Up", "b")
        var status: [String: Any] = [:]
        #expect(Remote.waitUntil {
            status = Self.status(session)
            return Self.bookTitle(status) == "Switch Book" && status["state"] as? String == "playing"
                && (status["elapsed"] as? Double ?? 0) > 60 - Shelf.rewind + 1
        }, "\(status)")
        try session.press("c")
        let call = session.waitFor { Self.banner($0) == " audio paused, will resume after the call" }
        #expect(call.met, "\(call.screen)")
        var paused: [String: Any] = [:]
        #expect(Remote.waitUntil {
            paused = Self.status(session)
            return paused["state"] as? String == "interrupted" && paused["engine"].map { "\($0)".contains("stopped") } == true
        }, "\(paused)")
        let place = try #require(paused["elapsed"] as? Double)

        try session.press("G", "Enter")
        var held: [String: Any] = [:]
        #expect(Remote.waitUntil {
            held = Self.status(session)
            return held["book"] == nil && (held["path"] as? String)?.hasSuffix("Tune.mp3") == true
        }, "\(held)")
        #expect(held["state"] as? String == "interrupted", "\(held)")
        #expect(held["callActive"] as? Bool == true, "\(held)")
        let banner = session.waitFor { Self.banner($0) == " audio paused, will resume after the call" }
        #expect(banner.met, "\(banner.screen)")
        // The book was left where the call paused it.
        let saved = try shelf.book.savedPosition()
        #expect(abs(saved - place) < 0.01, "saved \(saved), paused at \(place)")

        try session.press("c")
        var playing: [String: Any] = [:]
        #expect(Remote.waitUntil {
            playing = Self.status(session)
            return playing["state"] as? String == "playing" && (playing["elapsed"] as? Double ?? 0) > 0.5
        }, "\(playing)")
        #expect((playing["path"] as? String)?.hasSuffix("Tune.mp3") == true, "\(playing)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }

    @Test("a book opened while the session is suspended waits for the continue, then plays from its place after the single delayed resume")
    func bookOpenedDuringASuspension() throws {
        let shelf = try Shelf.make()
        let session = try shelf.player()
        try session.press("G", "Enter")
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 && $0.contains("▶ playing") }.met, "\(session.screen())")
        try session.press("s")
        #expect(session.waitFor("session suspended").met, "\(session.screen())")
        try session.press("G", "Up", "b")
        #expect(session.waitFor("bookOpened").met, "\(session.screen())")
        var held: [String: Any] = [:]
        #expect(Remote.waitUntil {
            held = Self.status(session)
            return Self.bookTitle(held) == "Switch Book" && held["suspended"] as? Bool == true
        }, "\(held)")
        #expect(held["state"] as? String != "playing", "\(held)")
        let start = try #require(held["elapsed"] as? Double)
        #expect(abs(start - (60 - Shelf.rewind)) < 0.2, "held at \(start)")
        // Nothing of the book sounds while suspended.
        usleep(1_000_000)
        #expect(abs((Self.status(session)["elapsed"] as? Double ?? -1) - start) < 0.01)

        try session.press("s")
        let resumed = session.waitFor { !TUISession.logLines($0, containing: "resumed position=").isEmpty }
        #expect(resumed.met, "\(resumed.screen)")
        #expect(resumed.screen.contains("wasSuspended=true"), "\(resumed.screen)")
        let line = TUISession.logLines(resumed.screen, containing: "resumed position=").last ?? ""
        let position = line.components(separatedBy: "position=").last?.split(separator: " ").first.flatMap { Double($0) }
        #expect(position.map { abs($0 - start) < 0.002 } == true, "\(line) against \(start)")
        var playing: [String: Any] = [:]
        #expect(Remote.waitUntil {
            playing = Self.status(session)
            return playing["state"] as? String == "playing" && (playing["elapsed"] as? Double ?? 0) > start + 0.5
        }, "\(playing)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }
}
