import Foundation
import Testing
import TestSupport

/// MPRIS's numbers from outside: a method's arguments are the command
/// table's, checked by its ranges before anything converts them. The real
/// binary on a private session bus, called by `dbus-send`.
@Suite(.serialized) struct MprisArgumentRangeTests {
    @Test("Seek(INT64_MAX) and Seek(INT64_MIN) are refused as invalid arguments naming seek; playback goes on")
    func hugeSeeksAreRefused() throws {
        guard MprisTests.available, ProcessRunner.which("dbus-send") != nil else { return }
        let mpris = MprisTests()
        let bus = try MprisTests.SessionBus()
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let player = try mpris.startPlayer(bus, library: library)
        #expect(try mpris.waitForName(bus) == ["interlude"])
        #expect(try Remote.waitUntil { try mpris.output(bus, ["-p", "interlude", "status"]) == "Playing" })
        for offset in [Int64.max, Int64.min] {
            let call = try ProcessRunner.run("dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.interlude",
                                                           "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player.Seek",
                                                           "int64:\(offset)"],
                                             environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], timeout: 10)
            #expect(call.exitStatus != 0, "\(offset): \(call.summary)")
            #expect(call.stderrText.contains("InvalidArgs") && call.stderrText.contains("seek: expects seconds"),
                    "\(offset): \(call.stderrText)")
        }
        // A seek in range still works through the same row.
        let back = try ProcessRunner.run("dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.interlude",
                                                       "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player.Seek",
                                                       "int64:5000000"],
                                         environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], timeout: 10)
        #expect(back.exitStatus == 0, "\(back.summary)")
        #expect(Remote.waitUntil { MprisTests.events(player).contains { $0.event == "jump" } })
        #expect(try Remote.status(player.runtime)["state"] as? String == "playing")
        #expect(!MprisTests.events(player).contains { $0.event == "error" })
    }

    @Test("Volume 1.5 and Rate 10 written as properties are refused with the table's words; nothing changes")
    func outOfRangePropertySetsAreRefused() throws {
        guard MprisTests.available, ProcessRunner.which("dbus-send") != nil else { return }
        let mpris = MprisTests()
        let bus = try MprisTests.SessionBus()
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let player = try mpris.startPlayer(bus, library: library)
        #expect(try mpris.waitForName(bus) == ["interlude"])
        #expect(try Remote.waitUntil { try mpris.output(bus, ["-p", "interlude", "status"]) == "Playing" })
        func set(_ property: String, _ value: String) throws -> ProcessResult {
            try ProcessRunner.run("dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.interlude",
                                                "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties.Set",
                                                "string:org.mpris.MediaPlayer2.Player", "string:\(property)",
                                                "variant:double:\(value)"],
                                  environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], timeout: 10)
        }
        let volume = try set("Volume", "1.5")
        #expect(volume.exitStatus != 0, "\(volume.summary)")
        #expect(volume.stderrText.contains("InvalidArgs") && volume.stderrText.contains("volume: expects a number from 0 to 1, not 1.5"),
                "\(volume.stderrText)")
        let rate = try set("Rate", "10")
        #expect(rate.exitStatus != 0, "\(rate.summary)")
        #expect(rate.stderrText.contains("InvalidArgs") && rate.stderrText.contains("speed: expects 0.5 to 3.0, not 10.0"),
                "\(rate.stderrText)")
        // Neither reached the player: no volume or speed event, the volume as it was.
        #expect(!MprisTests.events(player).contains { $0.event == "volume" || $0.event == "speed" })
        #expect(try Remote.status(player.runtime)["volume"] as? Double == 1)
        // In range, the same row sets it.
        let half = try set("Volume", "0.5")
        #expect(half.exitStatus == 0, "\(half.summary)")
        #expect(try Remote.waitUntil { try Remote.status(player.runtime)["volume"] as? Double == 0.5 })
    }
}
