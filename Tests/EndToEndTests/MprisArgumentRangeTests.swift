import Foundation
import Testing
import TestSupport

/// Issue 25, point 2, for MPRIS: a method's arguments are the command
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
}
