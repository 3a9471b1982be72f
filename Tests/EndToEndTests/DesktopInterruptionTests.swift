import Foundation
import InterludeCore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Other programs' streams on the sound server interrupt the
/// player by their `media.role`, through the same arbiter, policy table and
/// resume strategy as the built-in alarms. Each test has a sound server of
/// its own (a desktop stream reaches every client of a server, so on the
/// shared one it would interrupt other suites' players): the player plays to
/// its sink `out`, the desktop's programs (`paplay` with a role) to `desk`, so
/// `out`'s capture holds the player alone. Every test with a server runs the
/// same body twice: against PulseAudio and against
/// PipeWire with WirePlumber and pipewire-pulse (`SoundServerKind`, printed
/// as the `server` argument).
@Suite(.serialized) struct DesktopInterruptionTests {
    final class Desktop {
        let kind: SoundServerKind
        let server: any SoundServer
        let desk: NullSink
        let configHome = ScratchFiles.makeDirectory("desktop-config")

        init(_ kind: SoundServerKind, rolePolicy: Bool = false) throws {
            self.kind = kind
            server = try kind.start(rolePolicy: rolePolicy)
            desk = try server.makeSink(name: "desk")
        }

        deinit { server.stop() }

        var playerSink: NullSink { server.defaultSink }

        /// `paplay --property=media.role=ROLE` of a tone, in the background.
        func play(role: String, seconds: Double, frequency: Double = 880) throws -> BackgroundProcess {
            let tone = try Fixtures.wav(.tone(frequency: frequency), seconds: seconds, sampleRate: 44100, channels: 1)
            return try BackgroundProcess.start("paplay", ["--property=media.role=\(role)", tone],
                                               environment: desk.environment)
        }

        /// The same, waiting for it to end (the stream is gone when paplay exits).
        func playToEnd(role: String, seconds: Double) throws {
            let result = try play(role: role, seconds: seconds).wait(timeout: seconds + 20)
            #expect(result.succeeded, "paplay: \(result.summary)")
        }
    }

    /// `interlude play` in real time on the desktop's server, a FIFO on its standard input.
    final class Listener {
        let player: BackgroundProcess
        private let commands: Int32

        init(_ paths: [String], desktop: Desktop, environment: [String: String] = [:]) throws {
            let fifo = ScratchFiles.makeDirectory("desktop-commands") + "/commands"
            #expect(mkfifo(fifo, 0o600) == 0)
            commands = open(fifo, O_RDWR)
            var variables = desktop.playerSink.environment
            variables["XDG_CONFIG_HOME"] = desktop.configHome
            for (key, value) in environment { variables[key] = value }
            player = try InterludeBinary.start(["play"] + paths + ["--device", "pulse", "--latency", "100", "--events", "json"],
                                               environment: variables, stdinPath: fifo)
        }

        deinit {
            _ = player.stop(signal: SIGKILL, grace: 1)
            close(commands)
        }

        func type(_ command: String) {
            _ = (command + "\n").withCString { write(commands, $0, strlen($0)) }
        }

        var events: EventLog { player.eventsSoFar() }

        func event(_ name: String, _ index: Int = 0, timeout: Double = 10,
                   where predicate: (InterludeEvent) -> Bool = { _ in true }) -> InterludeEvent? {
            let deadline = monotonicSeconds() + timeout
            while true {
                let matching = events.named(name).filter(predicate)
                if matching.count > index { return matching[index] }
                guard player.isRunning, monotonicSeconds() < deadline else { return nil }
                usleep(10_000)
            }
        }

        /// Types quit and returns everything it printed (after the process
        /// ends, its output is in the result, no longer in `eventsSoFar`).
        func quit() -> (result: ProcessResult, events: EventLog) {
            type("quit")
            let result = player.wait(timeout: 10)
            return (result, EventLog(stdout: result.stdoutText))
        }

        var automaticResumes: [InterludeEvent] { Self.automaticResumes(events) }

        static func automaticResumes(_ log: EventLog) -> [InterludeEvent] {
            log.named("resumeRequested").filter { $0.fields["trigger"]?.description == "automatic" }
        }

        /// The interruption events whose source is `program` and class `priorityClass`.
        func interruptions(_ type: String, program: String = "paplay", class priorityClass: String,
                           in log: EventLog? = nil) -> [InterludeEvent] {
            (log ?? events).named("interruption").filter {
                $0.fields["type"]?.description == type && $0.fields["source"]?.description == program
                    && $0.fields["class"]?.description == priorityClass
            }
        }
    }

    static func book(_ name: String, seconds: Double = 30) throws -> BookUnderTest {
        try BookUnderTest.folder(name, files: 1, seconds: seconds)
    }

    // MARK: Acceptance 1

    @Test("acceptance 1: a phone stream pauses a book (began, reason and source paplay); the book is silent during it and resumes once with smart rewind",
          arguments: SoundServerKind.allCases)
    func phoneStreamPausesABookAndItResumesOnce(server: SoundServerKind) throws {
        let desktop = try Desktop(server)
        let book = try Self.book("Call")
        let recorder = try desktop.playerSink.startRecorder()
        let listener = try Listener([book.path], desktop: desktop, environment: book.environment)
        #expect(listener.event("trackStarted") != nil, "\(listener.events.events)")
        // Long enough into the chapter that smart rewind is not cut short by its start.
        usleep(4_000_000)

        try desktop.playToEnd(role: "phone", seconds: 3)
        let began = try #require(listener.interruptions("began", class: "call").first, "\(listener.events.events)")
        #expect(began.fields["reason"]?.description == "default")
        #expect(listener.event("paused") != nil)
        let ended = try #require(listener.event("interruption", where: { $0.fields["type"]?.description == "ended" }),
                                 "\(listener.events.events)")
        #expect(ended.fields["source"]?.description == "paplay")
        #expect(ended.fields["options"]?.description.contains("shouldResume") == true, "\(ended)")
        let resumed = try #require(listener.event("resumed"), "\(listener.events.events)")
        // Smart rewind: at least its 2 s floor after a pause of about 3 s.
        #expect((resumed.seconds("rewind") ?? 0) >= 1.9, "\(resumed)")
        usleep(2_000_000)
        let (result, log) = listener.quit()
        #expect(result.exitStatus == 0, "\(result.summary)")
        #expect(Listener.automaticResumes(log).count == 1, "\(log.events)")
        #expect(log.named("resumed").count == 1)

        // The book's sink: the book, then a silence as long as the call
        // (its fade, then nothing while the 3 s tone played on the other
        // sink), then the book again.
        let capture = try recorder.stop()
        let bounds = try #require(SignalAnalysis.signalBounds(capture, threshold: 30))
        let played = capture.frames(bounds)
        let silences = SignalAnalysis.silentRuns(played, threshold: 30,
                                                 minimumFrames: SignalAnalysis.frames(milliseconds: 500, sampleRate: capture.sampleRate))
        #expect(silences.count == 1, "\(silences)")
        let silence = Double(silences.first?.count ?? 0) / Double(capture.sampleRate)
        #expect(silence > 2.5 && silence < 5, "the book was silent for \(silence) s around a 3 s call")
    }

    // MARK: Acceptance 2

    @Test("acceptance 2: an event stream ducks music by the table's gain for its length, without a pause",
          arguments: SoundServerKind.allCases)
    func eventStreamDucksMusic(server: SoundServerKind) throws {
        let desktop = try Desktop(server)
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 20)
        let listener = try Listener([music], desktop: desktop)
        #expect(listener.event("trackStarted") != nil)
        usleep(1_000_000)
        try desktop.playToEnd(role: "event", seconds: 1.5)
        let ducking = try #require(listener.event("ducking"), "\(listener.events.events)")
        #expect(ducking.fields["type"]?.description == "began")
        #expect(ducking.fields["source"]?.description == "paplay")
        #expect(ducking.seconds("gain") == 0.2)
        #expect(listener.event("ducked")?.seconds("gain") == 0.2)
        let unducked = try #require(listener.event("unducked"), "\(listener.events.events)")
        // For the stream's length: from its start to its removal.
        #expect(unducked.t - ducking.t > 1.3, "ducked for \(unducked.t - ducking.t) s")
        let (result, log) = listener.quit()
        #expect(result.exitStatus == 0, "\(result.summary)")
        #expect(log.named("paused").isEmpty, "\(log.events)")
    }

    @Test("acceptance 2: an event stream pauses a book, which resumes once after it", arguments: SoundServerKind.allCases)
    func eventStreamPausesABook(server: SoundServerKind) throws {
        let desktop = try Desktop(server)
        let book = try Self.book("Event")
        let listener = try Listener([book.path], desktop: desktop, environment: book.environment)
        #expect(listener.event("trackStarted") != nil)
        usleep(1_000_000)
        try desktop.playToEnd(role: "event", seconds: 1.5)
        #expect(listener.interruptions("began", class: "navigation").count == 1, "\(listener.events.events)")
        #expect(listener.event("paused") != nil)
        #expect(listener.event("resumed") != nil, "\(listener.events.events)")
        #expect(listener.events.named("ducked").isEmpty)
        let (result, log) = listener.quit()
        #expect(result.exitStatus == 0, "\(result.summary)")
        #expect(Listener.automaticResumes(log).count == 1, "\(log.events)")
    }

    @Test("acceptance 2: an alarm stream shows the banner in the full-screen player and logs its program",
          arguments: SoundServerKind.allCases)
    func alarmStreamShowsTheBannerInTheFullScreenPlayer(server: SoundServerKind) throws {
        let desktop = try Desktop(server)
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        var environment = desktop.playerSink.environment
        environment["XDG_CONFIG_HOME"] = desktop.configHome
        let session = try TUISession(columns: 200, rows: 50, arguments: ["\(library)/Tones/1 Morning.mp3"],
                                     environment: environment)
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 2 }.met, "not playing: \(session.screen())")
        let alarm = try desktop.play(role: "alarm", seconds: 4)
        let banner = session.waitFor { $0.contains("audio paused, will resume after alarm") && $0.contains("source=paplay") }
        #expect(banner.met, "\(banner.screen)")
        #expect(banner.screen.components(separatedBy: "\n")[1] == " audio paused, will resume after alarm")
        #expect(TUISession.logLines(banner.screen, containing: "type=began").contains { $0.contains("class=alarm") })
        _ = alarm.wait(timeout: 20)
        let gone = session.waitFor { !$0.contains("audio paused") && $0.contains("type=ended") }
        #expect(gone.met, "\(gone.screen)")
        try session.press("q")
    }

    // MARK: Acceptance 3

    @Test("acceptance 3: a call with an alarm inside, ending in either order: one resume, after the last",
          arguments: SoundServerKind.allCases, [true, false])
    func callWithAnAlarmInside(server: SoundServerKind, alarmEndsFirst: Bool) throws {
        let desktop = try Desktop(server)
        let book = try Self.book("Stacked\(alarmEndsFirst)")
        let listener = try Listener([book.path], desktop: desktop, environment: book.environment)
        #expect(listener.event("trackStarted") != nil)
        usleep(1_000_000)
        let call = try desktop.play(role: "phone", seconds: alarmEndsFirst ? 4 : 2)
        #expect(listener.event("interruption", where: { $0.fields["class"]?.description == "call" }) != nil,
                "\(listener.events.events)")
        usleep(1_000_000)
        let alarm = try desktop.play(role: "alarm", seconds: alarmEndsFirst ? 1.5 : 3, frequency: 660)
        let first = alarmEndsFirst ? alarm : call
        let last = alarmEndsFirst ? call : alarm
        _ = first.wait(timeout: 20)
        usleep(500_000)
        // The first to end brings nothing back.
        #expect(listener.events.named("resumed").isEmpty, "\(listener.events.events)")
        _ = last.wait(timeout: 20)
        let resumed = try #require(listener.event("resumed"), "\(listener.events.events)")
        usleep(1_000_000)
        let (result, log) = listener.quit()
        #expect(result.exitStatus == 0, "\(result.summary)")
        #expect(Listener.automaticResumes(log).count == 1, "\(log.events)")
        #expect(log.named("resumed").count == 1)
        #expect(listener.interruptions("began", class: "call", in: log).count == 1)
        let callEnded = try #require(listener.interruptions("ended", class: "call", in: log).first, "\(log.events)")
        #expect(callEnded.fields["options"]?.description.contains("shouldResume") == true)
        if alarmEndsFirst {
            // The alarm came while the book was already paused by the call: the
            // call's end is the last, and the resume follows it.
            #expect(resumed.t >= callEnded.t)
        } else {
            // The call ended while the alarm still sounded: the resume waited
            // for it (the secondary-audio hint), then came once.
            #expect(log.named("resumePostponed").count == 1, "\(log.events)")
            let hintEnded = try #require(log.named("secondaryAudioHint").last { $0.fields["type"]?.description == "ended" })
            #expect(resumed.t >= hintEnded.t && hintEnded.t - callEnded.t > 0.5, "\(log.events)")
        }
    }

    // MARK: Acceptance 4

    @Test("acceptance 4: a pause during a desktop call means no resume after it; play is refused while it lasts and works once it ends",
          arguments: SoundServerKind.allCases)
    func userPauseDuringACall(server: SoundServerKind) throws {
        let desktop = try Desktop(server)
        let book = try Self.book("Paused")
        let listener = try Listener([book.path], desktop: desktop, environment: book.environment)
        #expect(listener.event("trackStarted") != nil)
        usleep(1_000_000)
        let call = try desktop.play(role: "phone", seconds: 3)
        #expect(listener.event("interruption", where: { $0.fields["type"]?.description == "began" }) != nil)
        listener.type("pause")
        listener.type("play")
        #expect(listener.event("playRefused") != nil, "\(listener.events.events)")
        _ = call.wait(timeout: 20)
        let ended = try #require(listener.event("interruption", where: { $0.fields["type"]?.description == "ended" }),
                                 "\(listener.events.events)")
        #expect(ended.fields["source"]?.description == "paplay")
        usleep(1_000_000)
        #expect(listener.automaticResumes.isEmpty, "\(listener.events.events)")
        #expect(listener.events.named("resumed").isEmpty)
        listener.type("play")
        let resumed = try #require(listener.event("resumeRequested"), "\(listener.events.events)")
        #expect(resumed.fields["trigger"]?.description == "user")
        #expect(listener.event("resumed") != nil)
        let (result, log) = listener.quit()
        #expect(result.exitStatus == 0, "\(result.summary)")
        #expect(Listener.automaticResumes(log).isEmpty)
    }

    // MARK: Without a server, and the server going away

    @Test("without a sound server the player says once that desktop interruptions are off and plays")
    func withoutAServerThePlayerPlays() throws {
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 2)
        let empty = ScratchFiles.makeDirectory("no-pulse")
        chmod(empty, 0o700)
        // ALSA's own null device: paced by nothing, reached without PulseAudio.
        let result = try InterludeBinary.run(["play", music, "--device", "null", "--events", "json"],
                                             environment: ["PULSE_SERVER": "unix:\(empty)/none", "XDG_CONFIG_HOME": empty],
                                             timeout: 60)
        #expect(result.exitStatus == 0, "\(result.summary)")
        let lines = result.stderrText.split(separator: "\n").filter { $0.contains("desktop interruptions are off") }
        #expect(lines.count == 1, "\(result.stderrText)")
        #expect(EventLog(stdout: result.stdoutText).named("finished").count == 1)
    }

    @Test("a bad value in the config file is one line naming the file, the line and the key; the player plays")
    func badConfigValueIsOneLine() throws {
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 1)
        let config = ScratchFiles.makeDirectory("desktop-bad-config")
        try FileManager.default.createDirectory(atPath: config + "/interlude", withIntermediateDirectories: true)
        try "desktop-role.phone = loud\n".write(toFile: config + "/interlude/config", atomically: true, encoding: .utf8)
        let result = try InterludeBinary.run(["play", music, "--device", "null"],
                                             environment: ["PULSE_SERVER": "unix:\(config)/none", "XDG_CONFIG_HOME": config],
                                             timeout: 60)
        #expect(result.exitStatus == 0, "\(result.summary)")
        let lines = result.stderrText.split(separator: "\n").filter { $0.contains("desktop-role.phone") }
        #expect(lines == ["interlude: \(config)/interlude/config:1: desktop-role.phone is 'loud'; use one of alarm, call, timer, navigation, notification, ignore"],
                "\(result.stderrText)")
    }

    @Test("libpulse is loaded when the player connects, not linked: renders, info and alarm never map it")
    func libpulseIsNotLinked() throws {
        let dynamic = try ProcessRunner.run("readelf", ["-d", InterludeBinary.path()]).check().stdoutText
        let needed = dynamic.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(!needed.isEmpty, "\(dynamic)")
        #expect(!needed.contains { $0.contains("libpulse") }, "\(needed)")
    }

    @Test("desktop-interruptions = off in the config file: no connection, no line", arguments: SoundServerKind.allCases)
    func turnedOffInTheConfigFile(server: SoundServerKind) throws {
        let desktop = try Desktop(server)
        try FileManager.default.createDirectory(atPath: desktop.configHome + "/interlude", withIntermediateDirectories: true)
        try "# mine\ndesktop-interruptions = off\n".write(toFile: desktop.configHome + "/interlude/config",
                                                         atomically: true, encoding: .utf8)
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 20)
        let listener = try Listener([music], desktop: desktop)
        #expect(listener.event("trackStarted") != nil)
        usleep(500_000)
        try desktop.playToEnd(role: "phone", seconds: 1)
        usleep(300_000)
        let (result, log) = listener.quit()
        #expect(result.exitStatus == 0, "\(result.summary)")
        #expect(log.named("interruption").isEmpty, "\(log.events)")
        #expect(!result.stderrText.contains("desktop"), "\(result.stderrText)")
    }
    // MARK: Acceptance 5

    /// The player keeps ALSA output only: module-role-cork's cork request goes
    /// to the stream's owner through libpulse's stream event callback, which the
    /// ALSA pulse plugin never sets, so the request is not observed. What role-cork acts
    /// on, the phone stream, reaches the player through the subscription: with
    /// the module loaded and the player's own stream marked as music (the role
    /// role-cork corks), the call pauses the player once and its end resumes it once.
    /// On PipeWire the server's role policy is WirePlumber's role-based
    /// endpoints as `PipeWireServer` configures them: the phone stream unlinks
    /// (corks) the player's music stream on the server while it lasts (checked
    /// there), and the player still pauses once, through the subscription, and
    /// resumes once.
    @Test("acceptance 5: with the server's role policy loaded (module-role-cork, WirePlumber's role endpoints), a phone stream pauses the player through the subscription, once, and its end resumes it once",
          arguments: SoundServerKind.allCases)
    func roleCorkLoadedThePhoneStreamPausesThroughTheSubscription(server: SoundServerKind) throws {
        let desktop = try Desktop(server, rolePolicy: true)
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 30)
        let listener = try Listener([music], desktop: desktop, environment: ["PULSE_PROP": "media.role=music"])
        #expect(listener.event("trackStarted") != nil)
        usleep(1_500_000)
        // Role-cork sees the player's stream as music.
        let inputs = try desktop.server.pactl(["list", "sink-inputs"]).stdoutText
        #expect(inputs.contains("media.role = \"music\""), "\(inputs)")
        let call = try desktop.play(role: "phone", seconds: 5)
        // On PipeWire every stream goes to its role's endpoint, whatever sink it
        // asked for, so the call corks the player's music stream there: WirePlumber
        // unlinks it, which pipewire-pulse shows as corked while the call lasts.
        // (Role-cork on PulseAudio acts within a sink: the call plays on `desk`.)
        if server == .pipeWire {
            let corked = Remote.waitUntil(20) {
                let player = (try? desktop.server.sinkInputs())?.first { $0.contains("application.id = \"interlude\"") }
                return player?.contains("Corked: yes") == true
            }
            #expect(corked, "WirePlumber's role policy did not cork the player's stream: \((try? desktop.server.sinkInputs()) ?? [])")
        }
        #expect(call.wait(timeout: 25).succeeded, "paplay")
        #expect(listener.event("resumed") != nil, "\(listener.events.events)")
        usleep(1_000_000)
        let (result, log) = listener.quit()
        #expect(result.exitStatus == 0, "\(result.summary)")
        #expect(listener.interruptions("began", class: "call", in: log).count == 1, "\(log.events)")
        #expect(log.named("paused").count == 1 && log.named("resumed").count == 1, "\(log.events)")
        #expect(Listener.automaticResumes(log).count == 1)
    }

    // MARK: Acceptance 7

    @Test("acceptance 7: the sound server killed while subscribed is reported once, the player pauses as for a lost device, and desktop interruptions come back with the server",
          arguments: SoundServerKind.allCases)
    func killedServerIsReportedOnceAndComesBack(server: SoundServerKind) throws {
        let desktop = try Desktop(server)
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 60)
        let listener = try Listener([music], desktop: desktop)
        #expect(listener.event("trackStarted") != nil)
        usleep(1_000_000)
        desktop.server.kill()
        let lost = try #require(listener.event("interruption", where: { $0.fields["reason"]?.description == "routeDisconnected" }),
                                "\(listener.events.events)")
        #expect(lost.fields["source"]?.description == "outputDeviceLost")
        // Several backoff periods with no server.
        usleep(3_000_000)
        let again = try server.start(runtimeDirectory: desktop.server.runtimeDirectory)
        defer { again.stop() }
        _ = try again.pactl(["load-module", "module-null-sink", "sink_name=desk"])
        // The next attempt is at most 4 s away; the user plays on meanwhile.
        usleep(5_000_000)
        listener.type("play")
        #expect(listener.event("resumed") != nil, "\(listener.events.events)")
        let tone = try Fixtures.wav(.tone(frequency: 880), seconds: 1.5, sampleRate: 44100, channels: 1)
        var environment = again.environment
        environment["PULSE_SINK"] = "desk"
        let call = try BackgroundProcess.start("paplay", ["--property=media.role=phone", tone], environment: environment)
        #expect(listener.event("interruption", where: { $0.fields["source"]?.description == "paplay" }) != nil,
                "\(listener.events.events)")
        _ = call.wait(timeout: 20)
        let (result, _) = listener.quit()
        #expect(result.exitStatus == 0, "\(result.summary)")
        let reports = result.stderrText.split(separator: "\n").filter { $0.contains("the sound server went away") }
        #expect(reports.count == 1, "\(result.stderrText)")
        #expect(!result.stderrText.contains("desktop interruptions are off"))
    }
}
