import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The time-shift buffer's limit: alone in its suite, as its
/// 3-minute pause is the longest wait of the time-shift tests and runs beside
/// the others. Set-up and measurement: `TimeShiftTests`.
@Suite(.serialized) struct TimeShiftLimitTests {
    typealias Shift = TimeShiftTests
    typealias Rig = TimeShiftTests.Rig

    /// Acceptance 4, the limit: `time-shift = 2m` with a 3-minute pause
    /// resumes 1 minute later than where it stopped (as far ahead as the
    /// listener was behind the live edge when pausing, within 1 s: where
    /// the status's `behindLive` was read and a packet's length), with the
    /// line; the buffer's file (`time-shift-memory = 0`: all of it there) is
    /// unlinked, only the player's descriptor names it.
    @Test("a 2-minute buffer and a 3-minute pause: the resume is 1 minute later than where it stopped, with a line")
    func theLimitMovesTheResumePointWithALine() throws {
        let rig = try Rig.start(config: "time-shift = 2m\ntime-shift-memory = 0\n")
        defer { rig.stop() }
        let player = try rig.player()
        #expect(player.waitFor("streamConnected", timeout: 20), "\(player.process.eventsSoFar().events)")
        #expect(try Shift.hear(player, seconds: 4))
        let lag = Shift.number(try Shift.status(player), "behindLive") ?? 0
        player.type("pause")
        #expect(player.waitFor("paused"))
        let pausedAt = Date()
        // The buffer's file: open in the player, unlinked from the cache folder.
        let files = (try? FileManager.default.contentsOfDirectory(atPath: rig.cache + "/interlude")) ?? []
        #expect(files.isEmpty, "\(files)")
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(player.process.pid)/fd")) ?? []
        let targets = descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(player.process.pid)/fd/\($0)") }
        #expect(targets.contains { $0.contains("/interlude/time-shift-") && $0.hasSuffix("(deleted)") }, "\(targets)")
        // At 2 minutes the buffer is full: one line says its oldest audio goes.
        #expect(player.process.waitForEvent(timeout: 150) { $0.event == "timeShift" && $0.message?.contains("full") == true } != nil,
                "\(player.process.eventsSoFar().events)")
        #expect(Shift.timeShiftLines(player).count == 1, "one line, not one a packet: \(Shift.timeShiftLines(player))")
        // The pause lasts 3 minutes (the scenario's length, not a wait for the player).
        let left = 180 - Date().timeIntervalSince(pausedAt)
        if left > 0 { usleep(UInt32(left * 1_000_000)) }
        player.type("play")
        #expect(player.waitFor("resumed"))
        #expect(player.process.waitForEvent(timeout: 10) { $0.event == "timeShift" && $0.message?.contains("later than where it stopped") == true } != nil,
                "\(Shift.timeShiftLines(player))")
        #expect(try Shift.hear(player, seconds: 5))
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")

        let heard = try rig.recorder.stop()
        let resume = try Shift.resume(heard, source: try WAVFile.read(rig.source), minimum: 170 * Shift.rate)
        let expected = Double(resume.pause.count) / Double(Shift.rate) + lag - 120
        let skipped = Double(resume.skipped) / Double(Shift.rate)
        #expect(abs(skipped - expected) <= 1, "skipped \(skipped) s, expected \(expected) s (pause \(resume.pause.count) frames, lag \(lag) s)")
        #expect(skipped > 55 && skipped < 70, "about a minute later: \(skipped) s")
    }

}
