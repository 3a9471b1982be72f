import Foundation
import Testing
import TestSupport

@Suite struct ProcessRunnerTests {
    @Test func capturesOutputStatusAndStdin() throws {
        let result = try ProcessRunner.run("sh", ["-c", "cat; echo err >&2; exit 3"], stdin: Data("hello".utf8))
        #expect(result.stdoutText == "hello")
        #expect(result.stderrText == "err\n")
        #expect(result.exitStatus == 3 && !result.timedOut && !result.succeeded)
    }

    @Test func passesEnvironment() throws {
        let result = try ProcessRunner.run("sh", ["-c", "printf %s \"$TS_PROBE\""], environment: ["TS_PROBE": "x y"])
        #expect(result.stdoutText == "x y")
    }

    @Test func timeoutKillsTheChild() throws {
        let result = try ProcessRunner.run("sleep", ["30"], timeout: 0.3)
        #expect(result.timedOut)
        #expect(result.terminatingSignal == SIGKILL)
    }

    @Test func backgroundProcessStopsByPID() throws {
        let process = try BackgroundProcess.start("sleep", ["30"])
        #expect(process.isRunning)
        let result = process.stop()
        #expect(result.terminatingSignal == SIGTERM)
        #expect(!process.isRunning)
        #expect(kill(process.pid, 0) != 0)  // reaped: the PID is no longer ours
    }

    @Test func missingProgramThrows() {
        #expect(throws: ProcessError.self) { try ProcessRunner.run("interlude-no-such-program") }
    }
}

@Suite struct BackgroundEventTests {
    @Test func waitsForAnEventPrintedWhileRunning() throws {
        let script = "echo '{\"t\":0,\"event\":\"trackStarted\",\"path\":\"a\"}'; sleep 0.2; echo '{\"t\":0.2,\"event\":\"trackEnded\"}'; sleep 30"
        let process = try BackgroundProcess.start("sh", ["-c", script])
        defer { process.stop() }
        let ended = process.waitForEvent(named: "trackEnded", timeout: 10)
        #expect(ended?.t == 0.2)
        #expect(process.eventsSoFar().events.map(\.event) == ["trackStarted", "trackEnded"])
        #expect(process.waitForEvent(named: "never", timeout: 0.05) == nil)
    }
}
