import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// logind's `PrepareForSleep` on the system
/// bus. A private `dbus-daemon` (started here, stopped by its PID) is the
/// player's system bus through `DBUS_SYSTEM_BUS_ADDRESS`; a stand-in for
/// logind (`Tests/Fixtures/fake_logind.py`, over jeepney) owns
/// `org.freedesktop.login1` on it and announces the sleep. Nothing sleeps for
/// real, so `CLOCK_BOOTTIME - CLOCK_MONOTONIC` never jumps: a `wasSuspended`
/// can only have come from the announcement.
@Suite(.serialized) struct SystemSleepTests {
    static let available = ["dbus-daemon", "dbus-send", "python3"].allSatisfy { ProcessRunner.which($0) != nil }

    /// The stand-in logind: a line on its standard input, a signal on the bus.
    final class FakeLogind {
        let process: BackgroundProcess
        private let commands: Int32

        init(_ bus: MprisTests.SessionBus) throws {
            let fifo = ScratchFiles.makeDirectory("fake-logind") + "/commands"
            #expect(mkfifo(fifo, 0o600) == 0)
            commands = open(fifo, O_RDWR)
            let package = InterludeBinary.packageRoot
            process = try BackgroundProcess.start("python3", ["\(package)/Tests/Fixtures/fake_logind.py", bus.address],
                                                  environment: ["PYTHONPATH": "\(package)/build/python"], stdinPath: fifo)
            guard Remote.waitUntil(15, { output.contains("ready") }) else {
                throw ProcessError.notReady("fake logind: \(output) \(process.stop().summary)")
            }
        }

        deinit {
            close(commands)
            _ = process.stop(signal: SIGKILL, grace: 1)
        }

        var output: String { String(decoding: process.currentStdout(), as: UTF8.self) }

        /// How many times `line` has been printed so far.
        func count(_ line: String) -> Int {
            output.split(separator: "\n").filter { $0.hasPrefix(line) }.count
        }

        /// Sends PrepareForSleep(`sleeping`) and returns once it has left for the bus.
        func prepareForSleep(_ sleeping: Bool) {
            let before = output.components(separatedBy: "sent").count
            _ = ((sleeping ? "true" : "false") + "\n").withCString { write(commands, $0, strlen($0)) }
            _ = Remote.waitUntil { output.components(separatedBy: "sent").count > before }
        }
    }

    @Test("acceptance 6: PrepareForSleep(true) then (false) on the system bus: the late began has wasSuspended, one delayed attempt follows")
    func prepareForSleepGivesTheSuspendedPath() throws {
        guard Self.available else { return }
        let bus = try MprisTests.SessionBus()
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let sink = try PulseServer.shared().makeSink()
        var environment = sink.environment
        environment["XDG_RUNTIME_DIR"] = try Remote.makeRuntimeDirectory()
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        let player = try InterludeBinary.start(["play", "\(library)/Tones/1 Morning.mp3", "--device", "pulse", "--events", "json"],
                                               environment: environment)
        defer { _ = player.stop() }
        #expect(player.waitForEvent(timeout: 20) { $0.event == "trackStarted" } != nil)

        // Another program's PrepareForSleep is no announcement: the match names logind as the sender.
        try ProcessRunner.run("dbus-send", ["--bus=\(bus.address)", "--type=signal", "/org/freedesktop/login1",
                                            "org.freedesktop.login1.Manager.PrepareForSleep", "boolean:true"], timeout: 10).check()
        let logind = try FakeLogind(bus)
        // logind was not there when the player started: a wake-up (or a vetoed sleep) has it take
        // the delay lock, which makes logind wait for it before the machine sleeps.
        logind.prepareForSleep(false)
        #expect(Remote.waitUntil(10) { logind.count("inhibited sleep delay") == 1 }, "\(logind.output)")
        logind.prepareForSleep(true)
        let sleeping = try #require(player.waitForEvent(timeout: 10) { $0.event == "systemWillSleep" })
        // Silent before the machine sleeps, and only then the lock given back.
        #expect(Remote.waitUntil(10) { logind.count("released") == 1 }, "\(logind.output)")
        #expect(player.eventsSoFar().events.contains { $0.event == "paused" && $0.t >= sleeping.t },
                "the lock went back before the fade ended")
        // A "sleep" of half a second, far too short for the clock-jump fallback (and no real sleep at all).
        usleep(500_000)
        logind.prepareForSleep(false)
        #expect(player.waitForEvent(timeout: 10) { $0.event == "resumed" && $0.t > sleeping.t } != nil)
        #expect(Remote.waitUntil(10) { logind.count("inhibited sleep delay") == 2 }, "taken again after the wake-up")

        let events = player.eventsSoFar().events
        let sleepEvents = events.filter { $0.event.hasPrefix("system") }.map(\.event)
        #expect(sleepEvents == ["systemWillSleep", "systemDidWake"], "the spoofed signal must not count: \(sleepEvents)")
        let woke = try #require(events.first { $0.event == "systemDidWake" })
        let interruptions = events.filter { $0.event == "interruption" }
        #expect(interruptions.count == 2, "\(interruptions)")
        let began = try #require(interruptions.first)
        #expect(began.t >= woke.t, "the began is late: after wake-up")
        #expect(began.fields["type"] == .string("began") && began.fields["wasSuspended"] == .bool(true)
                && began.fields["reason"] == .string("appWasSuspended") && began.fields["source"] == .string("suspension"),
                "\(began)")
        let ended = try #require(interruptions.last)
        #expect(ended.fields["type"] == .string("ended") && ended.fields["wasSuspended"] == .bool(true)
                && ended.fields["options"]?.description.contains("shouldResume") == true, "\(ended)")
        let scheduled = events.filter { $0.event == "resumeScheduled" }
        #expect(scheduled.count == 1 && scheduled.first?.number("delay") == 1, "\(scheduled)")
        let automatic = events.filter { $0.event == "resumeRequested" && $0.fields["trigger"] == .string("automatic") }
        #expect(automatic.count == 1, "the single delayed attempt: \(automatic)")
        if let attempt = automatic.first, let scheduledAt = scheduled.first?.t {
            #expect(attempt.t >= scheduledAt + 0.9, "after the delay: scheduled \(scheduledAt), attempted \(attempt.t)")
        }
        #expect(!events.contains { $0.event == "error" }, "\(events.filter { $0.event == "error" })")
    }

    /// A sleep of the machine as the
    /// player lives it. logind announces it (PrepareForSleep(true)), the
    /// process is frozen (SIGSTOP: a real sleep stops it the same way) from
    /// before the alarm's time (3 s after the start) until 4 s past it, thawed,
    /// and logind says the machine woke (PrepareForSleep(false)). Within the
    /// grace window (the default 10 min) it rings and says how late and that
    /// the computer was asleep, not that the player was stopped; with
    /// `alarm-grace = 0` it does not ring and is reported missed, for the same
    /// reason.
    @Test("an alarm due while the machine sleeps (PrepareForSleep, the process frozen): rang N s late, the computer was asleep, or missed past alarm-grace",
          arguments: [false, true])
    func alarmFoundLateAfterASleep(zeroGrace: Bool) throws {
        guard Self.available else { return }
        let bus = try MprisTests.SessionBus()
        let logind = try FakeLogind(bus)
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let sink = try PulseServer.shared().makeSink()
        let directory = ScratchFiles.makeDirectory("sleep-late")
        try FileManager.default.createDirectory(atPath: "\(directory)/config/interlude", withIntermediateDirectories: true)
        try (zeroGrace ? "alarm-grace = 0\n" : "").write(toFile: "\(directory)/config/interlude/config", atomically: true, encoding: .utf8)
        var environment = sink.environment
        environment["XDG_RUNTIME_DIR"] = try Remote.makeRuntimeDirectory()
        environment["XDG_CONFIG_HOME"] = "\(directory)/config"
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        let player = try InterludeBinary.start(["play", "\(library)/Tones/1 Morning.mp3", "--device", "pulse", "--events", "json",
                                                "--alarm-in", "3", "--alarm-ring", "1"],
                                               environment: environment)
        defer { _ = player.stop() }
        #expect(player.waitForEvent(timeout: 20) { $0.event == "trackStarted" } != nil)
        #expect(Remote.waitUntil(10) { logind.count("inhibited sleep delay") == 1 }, "\(logind.output)")
        logind.prepareForSleep(true)
        let sleeping = try #require(player.waitForEvent(timeout: 10) { $0.event == "systemWillSleep" })
        #expect(Remote.waitUntil(10) { logind.count("released") == 1 }, "\(logind.output)")
        // The machine asleep: the alarm's time (3 s after the start) passes while the process is frozen.
        #expect(kill(player.pid, SIGSTOP) == 0)
        usleep(7_000_000)
        #expect(kill(player.pid, SIGCONT) == 0)
        logind.prepareForSleep(false)
        #expect(player.waitForEvent(timeout: 10) { $0.event == "systemDidWake" && $0.t > sleeping.t } != nil)

        let late = { player.eventsSoFar().named("alarmLate").compactMap { $0.fields["message"]?.description } }
        let errors = { player.eventsSoFar().named("error").compactMap { $0.fields["message"]?.description } }
        if zeroGrace {
            #expect(Remote.waitUntil(10) { errors().contains { $0.contains("missed alarm 1") } }, "\(errors())")
            let missed = errors().filter { $0.contains("missed alarm 1") }
            #expect(missed.count == 1 && missed[0].range(of: #"^missed alarm 1( .*)?: \d+ s late, the computer was asleep$"#,
                                                          options: .regularExpression) != nil, "\(errors())")
            #expect(player.eventsSoFar().named("alarmRinging").isEmpty, "missed, yet it rang")
            #expect(late().isEmpty)
        } else {
            #expect(player.waitForEvent(timeout: 10) { $0.event == "alarmRinging" } != nil, "the late alarm did not ring")
            #expect(Remote.waitUntil(10) { !late().isEmpty })
            #expect(late().count == 1 && late()[0].range(of: #"^alarm 1 rang \d+ s late: the computer was asleep$"#,
                                                         options: .regularExpression) != nil, "\(late())")
            #expect(!errors().contains { $0.contains("missed") }, "\(errors())")
        }
    }

    @Test("without a system bus the player plays and says nothing about logind")
    func noSystemBusIsSilent() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 1)
        let sink = try PulseServer.shared().makeSink()
        var environment = sink.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = ""
        environment["DBUS_SESSION_BUS_ADDRESS"] = ""
        environment["XDG_RUNTIME_DIR"] = try Remote.makeRuntimeDirectory()
        let result = try ProcessRunner.run(InterludeBinary.path(),
                                           ["play", "\(library)/Tones/1 Morning.mp3", "--device", "pulse", "--events", "json"],
                                           environment: environment, timeout: 30)
        #expect(result.exitStatus == 0, "\(result.summary)")
        if access("/run/dbus/system_bus_socket", F_OK) != 0 {
            #expect(result.stderrText.isEmpty, "\(result.stderrText)")
        }
    }

    @Test("a system bus that does not answer is said once, and playback goes on")
    func unreachableSystemBusIsSaidOnce() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 1)
        let sink = try PulseServer.shared().makeSink()
        var environment = sink.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(ScratchFiles.directory)/no-system-bus-here"
        environment["DBUS_SESSION_BUS_ADDRESS"] = ""
        environment["XDG_RUNTIME_DIR"] = try Remote.makeRuntimeDirectory()
        let result = try ProcessRunner.run(InterludeBinary.path(),
                                           ["play", "\(library)/Tones/1 Morning.mp3", "--device", "pulse", "--events", "json"],
                                           environment: environment, timeout: 30)
        #expect(result.exitStatus == 0, "\(result.summary)")
        let lines = result.stderrText.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("system sleep is noticed by the clock only"), "\(result.stderrText)")
        let events = result.stdoutText.split(separator: "\n").compactMap { InterludeEvent.parse(line: String($0)) }
        #expect(events.contains { $0.event == "trackEnded" } && events.last?.event == "summary")
    }
}
