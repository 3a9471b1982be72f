import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A paused player's loop sleeps with alarms armed where no systemd user
/// manager answers: on a private session bus where nothing owns
/// `org.freedesktop.systemd1` (dbus-daemon's activation file for it runs
/// `/bin/false`), with no session bus at all, and with an address where no
/// bus listens. The full-screen player in tmux and the headless player, each
/// with three alarms, paused; the loop's CPU over 5 s read from /proc.
///
/// The loop is the main thread (`PlayerRuntime.waitForEvents`): its run
/// time comes from `/proc/PID/task/PID/schedstat`, in nanoseconds. The
/// process's utime and stime are printed beside it but not bounded: they are
/// clock ticks (10 ms, the bound itself), and they count the audio threads,
/// which PulseAudio keeps asking for data every period while paused
/// (about 35-45 ms of the writer's and libpulse's threads over 5 s in a
/// debug build), no turn of the loop.
@Suite(.serialized) struct LoopIdleTests {
    /// The acceptance's bound: under 10 ms of the loop's CPU over 5 s.
    static let bound = 0.010
    static let seconds = 5.0

    enum Bus: String, CaseIterable, Sendable {
        /// A private dbus-daemon on which nothing answers for the user manager.
        case silentManager = "a session bus with no user manager"
        /// `DBUS_SESSION_BUS_ADDRESS` empty and no `$XDG_RUNTIME_DIR/bus`.
        case none = "no session bus"
        /// An address where nothing listens.
        case nowhere = "a bus address where nothing listens"
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let bus: Bus
        /// `alarm-notify` in the config, or nil for the default (10 min).
        let notify: String?
        var testDescription: String { bus.rawValue + (notify.map { ", alarm-notify = \($0)" } ?? "") }
    }

    static let cases: [Case] = [
        Case(bus: .silentManager, notify: nil), Case(bus: .silentManager, notify: "0"),
        Case(bus: .none, notify: nil), Case(bus: .nowhere, notify: "0"),
    ]

    /// The bus's environment for the player, and the dbus-daemon kept alive while it runs.
    static func busEnvironment(_ bus: Bus) throws -> (environment: [String: String], daemon: MprisTests.SessionBus?) {
        switch bus {
        case .silentManager:
            let daemon = try MprisTests.SessionBus()
            return (["DBUS_SESSION_BUS_ADDRESS": daemon.address], daemon)
        case .none:
            return (["DBUS_SESSION_BUS_ADDRESS": ""], nil)
        case .nowhere:
            return (["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + ScratchFiles.makeDirectory("no-bus") + "/bus"], nil)
        }
    }

    /// The wake's reason an alarm's row gives for this bus.
    static func wakeReason(_ bus: Bus) -> String {
        bus == .silentManager ? "no user manager on the session bus" : "no session bus"
    }

    /// The loop thread's (the main thread's) run time so far, in seconds.
    static func loopSeconds(_ pid: pid_t) throws -> Double {
        let text = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/schedstat", encoding: .utf8)
        // "run-time-ns wait-time-ns timeslices".
        let nanoseconds = try #require(text.split(separator: " ").first.flatMap { Double($0) }, "schedstat: \(text)")
        return nanoseconds / 1e9
    }

    /// (the loop's CPU, the whole process's) over `seconds`.
    static func cpu(_ pid: pid_t, over seconds: Double) throws -> (loop: Double, process: Double) {
        let loop = try loopSeconds(pid), ticks = try ProcessCPU.ticks(of: pid)
        usleep(UInt32(seconds * 1_000_000))
        let process = Double(try ProcessCPU.ticks(of: pid) - ticks) / Double(sysconf(Int32(_SC_CLK_TCK)))
        return (try loopSeconds(pid) - loop, process)
    }

    /// Whether the player lists three enabled alarms, each saying it rings only while the computer is awake, and why.
    static func waitForWakeReasons(_ runtime: String, _ bus: Bus) -> Bool {
        Remote.waitUntil {
            let rows = ((try? Remote.run(runtime, ["alarm", "list"]).stdoutText) ?? "").split(separator: "\n").filter { $0.contains("(on)") }
            return rows.count == 3 && rows.allSatisfy { $0.hasSuffix("rings only while the computer is awake (\(wakeReason(bus)))") }
        }
    }

    static func config(_ configHome: String, notify: String?) throws {
        try FileManager.default.createDirectory(atPath: configHome + "/interlude", withIntermediateDirectories: true)
        try Data((notify.map { "alarm-notify = \($0)\n" } ?? "").utf8)
            .write(to: URL(fileURLWithPath: configHome + "/interlude/config"))
    }

    @Test("the full-screen player, paused with three alarms and no user manager, uses under 10 ms of the loop's CPU in 5 s",
          arguments: cases)
    func fullScreenSleeps(_ item: Case) throws {
        let (busEnvironment, daemon) = try Self.busEnvironment(item.bus)
        defer { withExtendedLifetime(daemon) {} }
        let track = try Fixtures.mp3(.tone(frequency: 440), seconds: 30)
        var environment = busEnvironment
        environment["TERM"] = "tmux-256color"
        let session = try TUISession(columns: 100, rows: 30, arguments: [track], environment: environment) { configHome in
            try Self.config(configHome, notify: item.notify)
            // Three alarms in the state file the player reads, added before it starts.
            let home = (configHome as NSString).deletingLastPathComponent
            let alone = ScratchFiles.makeDirectory("alarm-cli-run")
            chmod(alone, 0o700)
            let cli = ["XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": configHome, "XDG_RUNTIME_DIR": alone, "TZ": "UTC"]
            for arguments in [["in", "2h", "--label", "first"], ["in", "3h", "--label", "second"],
                              ["23:59", "--repeat", "daily", "--label", "third"]] {
                try ProcessRunner.run(InterludeBinary.path(), ["alarm", "add"] + arguments, environment: cli, timeout: 30).check()
            }
        }
        let runtime = session.playerRuntimeDirectory
        #expect(Remote.waitForPlayer(runtime), "\(session.screen())")
        #expect(Self.waitForWakeReasons(runtime, item.bus), "\((try? Remote.run(runtime, ["alarm", "list"]).stdoutText) ?? "")")
        try session.press("Space")
        #expect(try Remote.waitUntil { try Remote.status(runtime)["state"] as? String == "paused" }, "\(session.screen())")
        let pid = try #require(try session.playerPID())
        // The fade's end and the screen's last draw.
        usleep(1_000_000)
        let used = try Self.cpu(pid, over: Self.seconds)
        print("full-screen, \(item.testDescription): the loop used \(used.loop * 1000) ms in \(Self.seconds) s, the process \(used.process * 1000) ms")
        #expect(used.loop < Self.bound, "the loop used \(used.loop * 1000) ms of CPU in \(Self.seconds) s (\(item.testDescription))")
        #expect(try Remote.status(runtime)["state"] as? String == "paused")
    }

    @Test("the headless player, paused with three alarms and no user manager, uses under 10 ms of the loop's CPU in 5 s",
          arguments: [Case(bus: .silentManager, notify: "0"), Case(bus: .none, notify: nil)])
    func headlessSleeps(_ item: Case) throws {
        let (busEnvironment, daemon) = try Self.busEnvironment(item.bus)
        defer { withExtendedLifetime(daemon) {} }
        let track = try Fixtures.mp3(.tone(frequency: 440), seconds: 30)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let runtime = try Remote.makeRuntimeDirectory()
        let configHome = ScratchFiles.makeDirectory("loop-idle-config")
        try Self.config(configHome, notify: item.notify)
        var environment = sink.environment.merging(busEnvironment) { $1 }
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["XDG_CONFIG_HOME"] = configHome
        let player = try InterludeBinary.start(["play", track, "--device", "pulse", "--events", "json", "--alarm-in", "2h"],
                                               environment: environment)
        defer { _ = player.stop() }
        #expect(Remote.waitForPlayer(runtime))
        try Remote.run(runtime, ["alarm", "in", "3h"]).check()
        try Remote.run(runtime, ["alarm", "in", "4h"]).check()
        #expect(Self.waitForWakeReasons(runtime, item.bus), "\((try? Remote.run(runtime, ["alarm", "list"]).stdoutText) ?? "")")
        try Remote.run(runtime, ["pause"]).check()
        #expect(try Remote.waitUntil { try Remote.status(runtime)["state"] as? String == "paused" })
        usleep(1_000_000)
        let used = try Self.cpu(player.pid, over: Self.seconds)
        print("headless, \(item.testDescription): the loop used \(used.loop * 1000) ms in \(Self.seconds) s, the process \(used.process * 1000) ms")
        #expect(used.loop < Self.bound, "the loop used \(used.loop * 1000) ms of CPU in \(Self.seconds) s (\(item.testDescription))")
    }
}
