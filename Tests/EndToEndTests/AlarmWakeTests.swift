import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The next enabled alarm's wake, armed
/// through the systemd user manager's D-Bus API. python-dbusmock's `systemd`
/// template stands in for the user manager on a private session bus
/// (`dbus-daemon`, stopped by its PID); its call log is the oracle.
@Suite(.serialized) struct AlarmWakeTests {
    /// Debian's python3-dbusmock is the system Python's (python3-gi, python3-dbus beside it).
    static let python = "/usr/bin/python3"
    static let available = ["dbus-daemon", "dbus-send", "python3"].allSatisfy { ProcessRunner.which($0) != nil }
        && ((try? ProcessRunner.run(python, ["-c", "import dbusmock"], timeout: 20).succeeded) ?? false)

    /// `python3 -m dbusmock --template systemd` on the session bus, logging every call.
    final class UserManager {
        let process: BackgroundProcess
        let log = ScratchFiles.makeDirectory("systemd-mock") + "/calls.log"
        let bus: MprisTests.SessionBus

        init(_ bus: MprisTests.SessionBus) throws {
            self.bus = bus
            process = try BackgroundProcess.start(AlarmWakeTests.python, ["-m", "dbusmock", "--session", "--template", "systemd", "-l", log],
                                                  environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            guard Remote.waitUntil(15, { Self.owned(bus) }) else {
                throw ProcessError.notReady("systemd mock: \(process.stop().summary)")
            }
        }

        deinit { _ = process.stop(signal: SIGKILL, grace: 1) }

        static func owned(_ bus: MprisTests.SessionBus) -> Bool {
            (try? ProcessRunner.run("dbus-send", ["--bus=\(bus.address)", "--print-reply", "--dest=org.freedesktop.DBus", "/",
                                                  "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.systemd1"],
                                    timeout: 10).stdoutText.contains("true")) ?? false
        }

        var calls: [String] { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

        /// From now on StartTransientUnit answers AccessDenied, as a manager whose policy says no.
        func refuse() throws {
            try ProcessRunner.run("dbus-send", ["--bus=\(bus.address)", "--print-reply", "--dest=org.freedesktop.systemd1",
                                                "/org/freedesktop/systemd1", "org.freedesktop.DBus.Mock.AddMethod",
                                                "string:org.freedesktop.systemd1.Manager", "string:StartTransientUnit",
                                                "string:ssa(sv)a(sa(sv))", "string:o",
                                                "string:raise dbus.exceptions.DBusException('Access denied', name='org.freedesktop.DBus.Error.AccessDenied')"],
                                  timeout: 10).check()
        }
    }

    /// `OnCalendar=` as the player writes it for a wall second.
    static func calendar(_ instant: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(instant))) + " UTC"
    }

    /// A logged StartTransientUnit whose auxiliary service (`interlude-wake-PID-N.service`,
    /// as the timer is named) has `Wants=interlude.service`. dbusmock logs the
    /// properties' structs as Python's repr: `dbus.String('Wants'), dbus.Array([dbus.String('interlude.service')], ...)`.
    static func startsTheService(_ call: String) -> Bool {
        call.contains("StartTransientUnit")
            && call.range(of: #"interlude-wake-[0-9]+-[0-9]+\.service'.*'Wants'\), dbus\.Array\(\[dbus\.String\('interlude\.service'\)\]"#,
                          options: .regularExpression) != nil
    }

    /// `interlude play` of a tone with an alarm in 600 s, on `session` (and `system` when given).
    struct Started {
        let player: BackgroundProcess
        let runtime: String
        let sink: NullSink

        func stop() {
            _ = player.stop()
            sink.remove()
        }
    }

    static func start(session: MprisTests.SessionBus, system: MprisTests.SessionBus? = nil) throws -> Started {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let sink = try PulseServer.shared().makeSink()
        var environment = sink.environment
        let runtime = try Remote.makeRuntimeDirectory()
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["XDG_STATE_HOME"] = ScratchFiles.makeDirectory("wake-state")
        environment["DBUS_SESSION_BUS_ADDRESS"] = session.address
        if let system { environment["DBUS_SYSTEM_BUS_ADDRESS"] = system.address }
        let player = try InterludeBinary.start(["play", "\(library)/Tones/1 Morning.mp3", "--device", "pulse", "--events", "json",
                                                "--alarm-in", "600s"], environment: environment)
        return Started(player: player, runtime: runtime, sink: sink)
    }

    static func wakes(_ player: BackgroundProcess) -> [InterludeEvent] {
        player.eventsSoFar().events.filter { $0.event == "alarmWake" }
    }

    @Test("acceptance 2: the wake is armed for the next enabled alarm and re-armed at each change, at the right time; refused, the alarm rings only while awake")
    func wakeFollowsTheNextAlarm() throws {
        guard Self.available else { return }
        let bus = try MprisTests.SessionBus()
        let manager = try UserManager(bus)
        let before = Int(Date().timeIntervalSince1970)
        let started = try Self.start(session: bus)
        let (player, runtime) = (started.player, started.runtime)
        defer { started.stop() }
        let first = try #require(player.waitForEvent(timeout: 20) { $0.event == "alarmWake" })
        let after = Int(Date().timeIntervalSince1970)
        #expect(first.fields["wakes"] == .string("wakes the computer"), "\(first)")
        let late = try #require(first.number("at").map { Int($0) })
        #expect(late >= before + 599 && late <= after + 601, "the wake is not the alarm's time: \(late), started \(before)...\(after)")
        func armed(_ instant: Int) -> [String] {
            manager.calls.filter { $0.contains("StartTransientUnit") && $0.contains(Self.calendar(instant)) }
        }
        #expect(armed(late).count == 1, "\(manager.calls)")
        #expect(manager.calls.contains { $0.contains("StartTransientUnit") && $0.contains("WakeSystem") && $0.contains("interlude-wake") },
                "\(manager.calls)")
        // What the timer starts (the auxiliary service, named after it) wants the player's user service.
        #expect(manager.calls.contains { Self.startsTheService($0) }, "\(manager.calls)")
        #expect(Remote.waitForPlayer(runtime))
        let listed = try Remote.run(runtime, ["alarm", "list"]).check().stdoutText
        #expect(listed.hasSuffix(", wakes the computer\n"), "\(listed)")

        // An earlier alarm: re-armed for it, the old timer stopped.
        try Remote.run(runtime, ["alarm", "in", "300s"]).check()
        #expect(Remote.waitUntil { Self.wakes(player).count >= 2 }, "\(Self.wakes(player))")
        let soon = try #require(Self.wakes(player).last?.number("at").map { Int($0) })
        #expect(soon <= late - 299 && soon >= late - 301, "\(soon) vs \(late)")
        #expect(Remote.waitUntil { armed(soon).count == 1 }, "\(manager.calls)")
        #expect(manager.calls.contains { $0.contains("StopUnit") && $0.contains("interlude-wake-") }, "\(manager.calls)")

        // That alarm disabled: back to the first alarm's time.
        let both = try Remote.run(runtime, ["alarm", "list"]).check().stdoutText
        let id = try #require(both.split(separator: "\n").compactMap { line -> String? in
            line.contains("300") || line.contains("in 29") || line.contains("in 30") ? line.split(separator: " ").first.map(String.init) : nil
        }.last, "\(both)")
        try Remote.run(runtime, ["alarm", "disable", id.trimmingCharacters(in: CharacterSet(charactersIn: "#"))]).check()
        #expect(Remote.waitUntil { Self.wakes(player).count >= 3 }, "\(Self.wakes(player))")
        #expect(Self.wakes(player).last?.number("at").map { Int($0) } == late)
        #expect(Remote.waitUntil { armed(late).count == 2 }, "\(manager.calls)")

        // The manager refuses: the alarm rings only while the computer is awake, and says why.
        try manager.refuse()
        try Remote.run(runtime, ["alarm", "in", "100s"]).check()
        #expect(Remote.waitUntil { Self.wakes(player).count >= 4 }, "\(Self.wakes(player))")
        let refused = try #require(Self.wakes(player).last)
        #expect(refused.fields["wakes"] == .string("rings only while the computer is awake"), "\(refused)")
        #expect(refused.fields["reason"] == .string("no permission to wake the computer"), "\(refused)")
        // Each enabled alarm says so in the list; the disabled one says nothing of waking.
        let rows = try Remote.run(runtime, ["alarm", "list"]).check().stdoutText.split(separator: "\n").map(String.init)
        #expect(rows.count == 3, "\(rows)")
        let enabled = rows.filter { $0.contains("(on)") }
        #expect(enabled.count == 2 && enabled.allSatisfy { $0.hasSuffix(", rings only while the computer is awake (no permission to wake the computer)") },
                "\(rows)")
        #expect(rows.filter { $0.contains("(off)") }.allSatisfy { !$0.contains("computer") }, "\(rows)")
    }

    @Test("acceptance 2: without a user manager on the bus, the alarm rings only while the computer is awake")
    func noUserManager() throws {
        guard Self.available else { return }
        let bus = try MprisTests.SessionBus()
        let started = try Self.start(session: bus)
        let player = started.player
        defer { started.stop() }
        let wake = try #require(player.waitForEvent(timeout: 20) { $0.event == "alarmWake" })
        #expect(wake.fields["wakes"] == .string("rings only while the computer is awake"), "\(wake)")
        #expect(wake.fields["reason"] == .string("no user manager on the session bus"), "\(wake)")
        #expect(Remote.waitForPlayer(started.runtime))
        let listed = try Remote.run(started.runtime, ["alarm", "list"]).check().stdoutText
        #expect(listed.hasSuffix(", rings only while the computer is awake (no user manager on the session bus)\n"), "\(listed)")
    }

    /// `dbus-monitor` on `bus` for the player's StartTransientUnit calls, each a line with its wall time.
    final class CallMonitor {
        let process: BackgroundProcess
        let output = ScratchFiles.makeDirectory("wake-monitor") + "/calls.txt"

        init(_ bus: MprisTests.SessionBus) throws {
            process = try BackgroundProcess.start("dbus-monitor", ["--address", bus.address,
                                                                   "type='method_call',interface='org.freedesktop.systemd1.Manager',member='StartTransientUnit'"],
                                                  stdout: .file(output))
            // It says its own name's loss once it monitors.
            guard Remote.waitUntil(10, { ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("NameLost") }) else {
                throw ProcessError.notReady("dbus-monitor: \(process.stop().summary)")
            }
        }

        deinit { _ = process.stop() }

        /// The wall seconds of the calls seen so far.
        var calls: [Double] {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n")
                .filter { $0.hasPrefix("method call ") && $0.contains("member=StartTransientUnit") }
                .compactMap { line in line.split(separator: " ").first { $0.hasPrefix("time=") }.flatMap { Double($0.dropFirst(5)) } }
        }
    }

    @Test("a user manager that is missing is asked again on a backoff, never in a loop, the failure said once; one that starts later arms the wake")
    func missingUserManagerIsRetriedOnABackoff() throws {
        guard Self.available, ProcessRunner.which("dbus-monitor") != nil else { return }
        let bus = try MprisTests.SessionBus()
        let monitor = try CallMonitor(bus)
        let started = try Self.start(session: bus)
        let player = started.player
        defer { started.stop() }
        let refused = try #require(player.waitForEvent(timeout: 20) { $0.event == "alarmWake" })
        #expect(refused.fields["reason"] == .string("no user manager on the session bus"), "\(refused)")
        // The first attempt, then after 1 s and 2 s more; the next would be 4 s after that.
        #expect(Remote.waitUntil(15) { monitor.calls.count >= 3 }, "\(monitor.calls)")
        let calls = monitor.calls
        let gaps = zip(calls.dropFirst(), calls).map { $0 - $1 }
        #expect(calls.count <= 4 && gaps.allSatisfy { $0 >= 0.5 }, "the retries came at \(calls)")
        #expect(gaps.count >= 2 && gaps[1] > gaps[0] * 1.5, "the retries do not back off: gaps \(gaps)")
        // The manager starts: the next retry (4 s after the last) arms the wake.
        let manager = try UserManager(bus)
        let armed = try #require(player.waitForEvent(timeout: 20) { $0.event == "alarmWake" && $0.fields["wakes"] == .string("wakes the computer") },
                                 "\(Self.wakes(player)) after \(monitor.calls)")
        let at = try #require(armed.number("at").map { Int($0) })
        #expect(manager.calls.filter { $0.contains("StartTransientUnit") && $0.contains(Self.calendar(at)) }.count == 1, "\(manager.calls)")
        // Said once: each failed retry was the same refusal.
        let failures = Self.wakes(player).filter { $0.fields["wakes"] == .string("rings only while the computer is awake") }
        #expect(failures.count == 1, "\(Self.wakes(player))")
        #expect(monitor.calls.count <= 6, "\(monitor.calls)")
    }

    /// The wall second at the end of a fake logind's line ("... at SECONDS").
    static func stamp(_ line: String) -> Double? { line.components(separatedBy: " at ").last.flatMap(Double.init) }

    /// The wall second python-dbusmock logged a call at (its lines start with time.time()).
    static func logged(_ line: String) -> Double? { line.split(separator: " ").first.flatMap { Double($0) } }

    @Test("acceptance 2: on PrepareForSleep(true) the wake is re-armed and the delay lock given back within 1 s; after the wake-up, re-armed again")
    func sleepReArmsAndReleasesTheDelayLock() throws {
        guard Self.available else { return }
        let session = try MprisTests.SessionBus()
        let system = try MprisTests.SessionBus()
        let manager = try UserManager(session)
        let logind = try SystemSleepTests.FakeLogind(system)
        let started = try Self.start(session: session, system: system)
        let player = started.player
        defer { started.stop() }
        let first = try #require(player.waitForEvent(timeout: 20) { $0.event == "alarmWake" })
        let at = try #require(first.number("at").map { Int($0) })
        #expect(Remote.waitUntil(10) { logind.count("inhibited sleep delay") == 1 }, "\(logind.output)")
        func arms() -> [String] { manager.calls.filter { $0.contains("StartTransientUnit") && $0.contains(Self.calendar(at)) } }
        #expect(Remote.waitUntil { arms().count == 1 }, "\(manager.calls)")

        logind.prepareForSleep(true)
        #expect(Remote.waitUntil(10) { logind.count("released") == 1 }, "\(logind.output)")
        let lines = logind.output.split(separator: "\n").map(String.init)
        let announced = try #require(lines.first { $0.hasPrefix("sent true") }.flatMap(Self.stamp))
        let released = try #require(lines.first { $0.hasPrefix("released") }.flatMap(Self.stamp))
        #expect(released - announced <= 1, "the delay lock was held \(released - announced) s after PrepareForSleep(true)")
        // Re-armed for the sleep (the player sends it before it gives the lock
        // back; the mock logs it when it handles it, which may be later).
        #expect(Remote.waitUntil { arms().count == 2 }, "\(manager.calls)")
        let rearmed = try #require(arms().last.flatMap(Self.logged))
        #expect(rearmed >= announced, "re-armed at \(rearmed), announced \(announced)")

        logind.prepareForSleep(false)
        #expect(Remote.waitUntil { arms().count == 3 }, "re-armed after the wake-up: \(manager.calls)")
        #expect(Remote.waitUntil(10) { logind.count("inhibited sleep delay") == 2 }, "taken again after the wake-up")
    }
}
