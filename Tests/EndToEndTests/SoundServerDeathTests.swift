import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The sound server killed with SIGKILL during playback
/// and started again, twice here (`make soak` does it twenty times with
/// 10 s windows). Each time the player pauses with a message, sleeps while
/// it waits (CPU from /proc), keeps its place, and plays on from there
/// after the user's play once the server is back. The server gone before
/// the player starts is `NoSoundCardTests`.
@Suite(.serialized) struct SoundServerDeathTests {
    @Test("point 6: the server killed twice during playback: a pause with a message each time, under 1% CPU while waiting, the place kept, and play plays on from it once it is back")
    func killedServerPausesWaitsQuietlyAndPlaysOn() throws {
        let desktop = try DesktopInterruptionTests.Desktop(.pulseAudio)
        var server = desktop.server
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 120)
        let listener = try DesktopInterruptionTests.Listener([music], desktop: desktop)
        #expect(listener.event("trackStarted") != nil, "\(listener.events.events)")
        var restarted: [any SoundServer] = []
        defer { for again in restarted { again.stop() } }
        for round in 0..<2 {
            usleep(1_500_000)
            server.kill()
            let lost = listener.event("interruption", round, where: { $0.fields["source"]?.description == "outputDeviceLost" })
            #expect(lost != nil, "round \(round): \(listener.events.events)")
            let paused = try #require(listener.event("paused", round), "round \(round): \(listener.events.events)")
            let message = listener.event("error", where: { $0.fields["message"]?.description.contains("play again when the device is back") == true })
            #expect(message != nil, "round \(round): no message: \(listener.events.events)")
            // Waiting: the player sleeps in poll (the desktop source's reconnection
            // attempts aside); 2 s here, 10 s a round in `make soak`.
            let cpu = try ProcessCPU.share(of: listener.player.pid, over: 2)
            #expect(cpu < 0.01, "round \(round): \(cpu * 100)% CPU while waiting for the server")

            server = try PulseServer.start(runtimeDirectory: desktop.server.runtimeDirectory)
            restarted.append(server)
            listener.type("play")
            let resumed = try #require(listener.event("resumed", round), "round \(round): \(listener.events.events)")
            // Music has no smart rewind: on from exactly where the listener stopped hearing it.
            #expect(resumed.number("position") == paused.number("position"), "round \(round): \(paused) then \(resumed)")
            // And it is heard again.
            let recorder = try server.defaultSink.startRecorder()
            usleep(1_500_000)
            let heard = try recorder.stop()
            #expect(SignalAnalysis.dBFS(SignalAnalysis.rms(heard)) > -40, "round \(round): silent after play: \(heard)")
        }
        let (result, log) = listener.quit()
        #expect(result.exitStatus == 0, "\(result.summary)")
        #expect(log.named("resumed").count == 2, "\(log.events)")
        #expect(DesktopInterruptionTests.Listener.automaticResumes(log).isEmpty, "resumed by itself: \(log.events)")
    }
}

/// The CPU a process uses, from the utime and stime of `/proc/PID/stat`.
enum ProcessCPU {
    /// User plus system clock ticks so far.
    static func ticks(of pid: pid_t) throws -> Int {
        let text = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name may hold spaces: fields are counted after its closing parenthesis.
        guard let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime 14 and stime 15 (1-based in proc(5)).
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    /// The share of one CPU `pid` used over the next `seconds`.
    static func share(of pid: pid_t, over seconds: Double) throws -> Double {
        let before = try ticks(of: pid)
        let start = monotonicSeconds()
        usleep(UInt32(seconds * 1_000_000))
        let used = Double(try ticks(of: pid) - before) / Double(sysconf(Int32(_SC_CLK_TCK)))
        return used / (monotonicSeconds() - start)
    }
}
