import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Desktop notifications of alarms
/// through `org.freedesktop.Notifications`, in the real full-screen player.
/// python-dbusmock's `notification_daemon` template stands in for the
/// notification server on a private session bus (`dbus-daemon`, stopped by
/// its PID); its call log is the oracle, and `ActionInvoked` is emitted from
/// it as a server does when the listener clicks.
@Suite(.serialized) struct AlarmNotificationTests {
    static let available = AlarmWakeTests.available

    /// `python3 -m dbusmock --template notification_daemon` on the session bus, logging every call.
    final class NotificationServer {
        let process: BackgroundProcess
        let log = ScratchFiles.makeDirectory("notification-mock") + "/calls.log"
        let bus: MprisTests.SessionBus

        /// `capabilities`: the server's, space-separated (the template's own default lists no `actions`).
        init(_ bus: MprisTests.SessionBus, capabilities: String? = nil) throws {
            self.bus = bus
            let parameters = capabilities.map { ["-p", "{\"capabilities\": \"\($0)\"}"] } ?? []
            process = try BackgroundProcess.start(AlarmWakeTests.python,
                                                  ["-m", "dbusmock", "--session", "--template", "notification_daemon", "-l", log] + parameters,
                                                  environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            guard Remote.waitUntil(15, { Self.owned(bus) }) else {
                throw ProcessError.notReady("notification mock: \(process.stop().summary)")
            }
        }

        deinit { _ = process.stop(signal: SIGKILL, grace: 1) }

        static func owned(_ bus: MprisTests.SessionBus) -> Bool {
            (try? ProcessRunner.run("dbus-send", ["--bus=\(bus.address)", "--print-reply", "--dest=org.freedesktop.DBus", "/",
                                                  "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.Notifications"],
                                    timeout: 10).stdoutText.contains("true")) ?? false
        }

        var calls: [String] { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
        var notifies: [String] { calls.filter { $0.contains(" Notify ") } }

        /// The server says the listener chose `action` on notification `id` (the mock's ids count from 1).
        func invoke(_ id: Int, _ action: String) throws {
            let script = """
            import dbus, sys
            bus = dbus.bus.BusConnection(sys.argv[1])
            mock = bus.get_object('org.freedesktop.Notifications', '/org/freedesktop/Notifications')
            mock.EmitSignal('org.freedesktop.Notifications', 'ActionInvoked', 'us', [dbus.UInt32(int(sys.argv[2])), sys.argv[3]],
                            dbus_interface='org.freedesktop.DBus.Mock')
            """
            try ProcessRunner.run(AlarmWakeTests.python, ["-c", script, bus.address, String(id), action], timeout: 20).check()
        }
    }

    /// `HH:MM` (UTC) three minutes from now: announced at once (the default lead is 10 min), not rung during the test.
    static func soon() -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = Date().addingTimeInterval(180)
        return String(format: "%02d:%02d", calendar.component(.hour, from: date), calendar.component(.minute, from: date))
    }

    @Test("the next alarm is announced with suppress-sound and a skip action; the action skips that ring only")
    func theNextAlarmIsAnnouncedAndItsActionSkipsIt() throws {
        guard Self.available else { return }
        let bus = try MprisTests.SessionBus()
        let server = try NotificationServer(bus, capabilities: "body actions")
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 60)
        let session = try TUISession(columns: 160, rows: 40, arguments: [library], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(session.waitFor("4 Alarms").met)
        let environment = ["XDG_STATE_HOME": "\(session.directory)/state", "TZ": "UTC"]
        let time = Self.soon()
        let added = try InterludeBinary.run(["alarm", "add", time, "--repeat", "daily", "--label", "work"], environment: environment)
        #expect(added.succeeded, "\(added.summary)")
        #expect(Remote.waitUntil(20) { !server.notifies.isEmpty }, "no Notify: \(server.calls)")
        #expect(server.calls.contains { $0.contains("GetCapabilities") }, "\(server.calls)")
        let notify = try #require(server.notifies.first)
        #expect(server.notifies.count == 1, "announced more than once: \(server.notifies)")
        #expect(notify.contains("Interlude") && notify.contains("\(time): work") && notify.contains("\"suppress-sound\": True"), "\(notify)")
        #expect(notify.contains("[\"skip\", \"Skip this one\"]"), "\(notify)")

        try server.invoke(1, "skip")
        let skipped = Remote.waitUntil(20) {
            (try? InterludeBinary.run(["alarm", "list"], environment: environment).stdoutText.contains("(skips ")) == true
        }
        let after = try InterludeBinary.run(["alarm", "list"], environment: environment).stdoutText
        #expect(skipped, "the action did not skip: \(after)")
        let list = try InterludeBinary.run(["alarm", "list", "--json"], environment: environment).stdoutText
        // The ring skipped is today's (the announced one), and the next is tomorrow's at the same time.
        #expect(list.contains("\"skips\" : \"") && list.contains("T\(time):00+00:00"), "\(list)")
        let listed = try InterludeBinary.run(["alarm", "list"], environment: environment).stdoutText
        #expect(listed.components(separatedBy: "skips").count == 2, "one ring skipped: \(listed)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }

    @Test("a server without actions gets the announcement without one")
    func withoutActionsNoSkipIsOffered() throws {
        guard Self.available else { return }
        let bus = try MprisTests.SessionBus()
        let server = try NotificationServer(bus)
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 60)
        let session = try TUISession(columns: 160, rows: 40, arguments: [library], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(session.waitFor("4 Alarms").met)
        let environment = ["XDG_STATE_HOME": "\(session.directory)/state", "TZ": "UTC"]
        let added = try InterludeBinary.run(["alarm", "add", Self.soon(), "--repeat", "daily"], environment: environment)
        #expect(added.succeeded, "\(added.summary)")
        #expect(Remote.waitUntil(20) { !server.notifies.isEmpty }, "no Notify: \(server.calls)")
        let notify = try #require(server.notifies.first)
        #expect(notify.contains("\"suppress-sound\": True") && notify.contains(" [] {"), "\(notify)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }

    @Test("an alarm missed while the player was not running gives a notification")
    func aMissedAlarmGivesANotification() throws {
        guard Self.available else { return }
        let bus = try MprisTests.SessionBus()
        let server = try NotificationServer(bus, capabilities: "body actions")
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 60)
        let session = try TUISession(columns: 160, rows: 40, arguments: [library],
                                     environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address]) { config in
            // No grace: an alarm found a second late is missed.
            try "alarm-grace = 0\n".write(toFile: config + "/interlude/config", atomically: true, encoding: .utf8)
            let state = (config as NSString).deletingLastPathComponent + "/state"
            let added = try InterludeBinary.run(["alarm", "add", "in", "1s", "--label", "tea"], environment: ["XDG_STATE_HOME": state, "TZ": "UTC"])
            #expect(added.succeeded, "\(added.summary)")
            let due = Date().addingTimeInterval(2)
            #expect(Remote.waitUntil(10) { Date() > due })
        }
        #expect(session.waitFor("4 Alarms").met)
        #expect(Remote.waitUntil(20) { server.notifies.contains { $0.contains("Missed alarm") } }, "\(server.calls)")
        let missed = server.notifies.filter { $0.contains("Missed alarm") }
        #expect(missed.count == 1 && missed[0].contains("missed alarm 1 tea") && missed[0].contains(" [] {"), "\(missed)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }
}
