import Foundation
import Testing
import TestSupport

/// The keys cmus, mpv and ncmpcpp users reach for in their first hour: mute,
/// stop and a seek to a typed time, each a row of the command table with its
/// default key (`_`, `H`, `@`), and each on the control socket by the same name.
@Suite(.serialized) struct TUIEverydayKeysTests {
    static func volume(_ status: [String: Any]) -> Double { status["volume"] as? Double ?? -1 }

    @Test("_ mutes (volume 0, 'muted' on the screen and in status) and unmutes to the volume before; + or - while muted unmutes from it; the socket's mute is the same")
    func muteKeyAndSocket() throws {
        let music = try Fixtures.mp3(.sweep, seconds: 30, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let session = try TUISession(columns: 120, rows: 40, arguments: [music])
        let runtime = session.runtimeDirectory
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met, "\(session.screen())")
        try Remote.run(runtime, ["volume", "0.5"]).check()
        #expect(session.waitFor("vol 50%").met)

        try session.press("_")
        let muted = session.waitFor("muted (vol 50%)")
        #expect(muted.met && muted.screen.contains("muted (volume 50%)"), "\(muted.screen)")
        var status = try Remote.status(runtime)
        #expect(status["muted"] as? Bool == true && Self.volume(status) == 0 && status["unmutedVolume"] as? Double == 0.5, "\(status)")
        try session.press("_")
        #expect(session.waitFor { $0.contains("vol 50%") && !$0.contains("muted") }.met, "\(session.screen())")
        status = try Remote.status(runtime)
        #expect(status["muted"] as? Bool == false && Self.volume(status) == 0.5 && status["unmutedVolume"] == nil, "\(status)")

        // A step while muted starts from the volume before the mute, and unmutes.
        try session.press("_")
        #expect(session.waitFor("muted (vol 50%)").met)
        try session.press("+")
        #expect(session.waitFor { $0.contains("vol 55%") && !$0.contains("muted") }.met, "\(session.screen())")
        status = try Remote.status(runtime)
        #expect(status["muted"] as? Bool == false && abs(Self.volume(status) - 0.55) < 1e-9, "\(status)")
        try session.press("_")
        #expect(session.waitFor("muted (vol 55%)").met)
        try session.press("-")
        #expect(session.waitFor { $0.contains("vol 50%") && !$0.contains("muted") }.met, "\(session.screen())")

        // The socket's command of the same name.
        try Remote.run(runtime, ["mute"]).check()
        #expect(session.waitFor("muted (vol 50%)").met, "\(session.screen())")
        status = try Remote.status(runtime)
        #expect(status["muted"] as? Bool == true && Self.volume(status) == 0, "\(status)")
        try Remote.run(runtime, ["mute"]).check()
        status = try Remote.status(runtime)
        #expect(status["muted"] as? Bool == false && abs(Self.volume(status) - 0.5) < 1e-9, "\(status)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }

    @Test("H stops: paused at the start of the track, 'stopped' on the screen and in status, space plays from there; the socket's stop does the same")
    func stopKeyAndSocket() throws {
        let first = try Fixtures.mp3(.sweep, seconds: 30, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let second = try Fixtures.mp3(.tone(frequency: 330), seconds: 30, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let session = try TUISession(columns: 120, rows: 40, arguments: [first, second])
        let runtime = session.runtimeDirectory
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 3 }.met, "\(session.screen())")

        try session.press("H")
        let stopped = session.waitFor { $0.contains("stopped · vol") && TUISession.elapsed($0) == 0 }
        #expect(stopped.met, "\(stopped.screen)")
        var status = try Remote.status(runtime)
        #expect(status["state"] as? String == "stopped" && status["queueIndex"] as? Int == 0, "\(status)")
        #expect((status["elapsed"] as? Double ?? -1) < 0.5, "\(status)")

        try session.press("Space")
        #expect(session.waitFor { $0.contains("playing · vol") && (TUISession.elapsed($0) ?? 0) >= 2 }.met, "\(session.screen())")
        try Remote.run(runtime, ["stop"]).check()
        #expect(session.waitFor { $0.contains("stopped · vol") && TUISession.elapsed($0) == 0 }.met, "\(session.screen())")
        status = try Remote.status(runtime)
        #expect(status["state"] as? String == "stopped" && (status["elapsed"] as? Double ?? -1) < 0.5, "\(status)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }

    @Test("@ asks for a time: 0:01:10, 0:50 and 100 from the book's start, -30 and +20 from here, in book time; not a time is refused; the socket's seek-to reads the same")
    func seekToATypedTimeInABook() throws {
        let book = try BookUnderTest.folder("seek-typed", files: 3, seconds: 40)
        let session = try TUISession(columns: 120, rows: 40, arguments: ["--book", book.path])
        let runtime = session.runtimeDirectory
        #expect(session.waitFor("chapter 1/3").met, "\(session.screen())")
        // Paused, so each place stays where the seek put it.
        try session.press("Space")
        #expect(Remote.waitUntil { (try? Remote.status(runtime))?["state"] as? String == "paused" })

        func seek(typing text: String, expecting seconds: Double, chapter: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
            try session.press("@")
            #expect(session.waitFor("seek to (").met, "\(session.screen())", sourceLocation: sourceLocation)
            try session.type(text)
            try session.press("Enter")
            var last: [String: Any] = [:]
            let arrived = Remote.waitUntil {
                last = (try? Remote.status(runtime)) ?? [:]
                return abs((last["elapsed"] as? Double ?? -1) - seconds) < 0.5
            }
            #expect(arrived, "after '\(text)': \(last)", sourceLocation: sourceLocation)
            #expect((last["book"] as? [String: Any])?["chapter"] as? Int == chapter, "after '\(text)': \(last)",
                    sourceLocation: sourceLocation)
        }
        try seek(typing: "0:01:10", expecting: 70, chapter: 2)
        try seek(typing: "0:50", expecting: 50, chapter: 2)
        try seek(typing: "100", expecting: 100, chapter: 3)
        try seek(typing: "-30", expecting: 70, chapter: 2)
        try seek(typing: "+20", expecting: 90, chapter: 3)

        try session.press("@")
        try session.type("soon")
        try session.press("Enter")
        #expect(session.waitFor("seek-to: expects a time from the start").met, "\(session.screen())")
        #expect(abs((try Remote.status(runtime)["elapsed"] as? Double ?? -1) - 90) < 0.5)

        // The socket's seek-to, by the same name, as interlude remote and as a raw request with the text.
        try Remote.run(runtime, ["seek-to", "0:30"]).check()
        #expect(Remote.waitUntil { abs(((try? Remote.status(runtime))?["elapsed"] as? Double ?? -1) - 30) < 0.5 })
        try Remote.run(runtime, ["seek-to", "+15"]).check()
        #expect(Remote.waitUntil { abs(((try? Remote.status(runtime))?["elapsed"] as? Double ?? -1) - 45) < 0.5 })
        let connection = try RawControlConnection(runtime + "/interlude/control")
        connection.send(#"{"id":1,"command":"seek-to","args":["1:05"]}"#)
        #expect(connection.readLine()?.contains(#""ok":true"#) == true)
        #expect(Remote.waitUntil { abs(((try? Remote.status(runtime))?["elapsed"] as? Double ?? -1) - 65) < 0.5 })
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }
}
