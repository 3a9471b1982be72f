import InterludeCore
import Streams
import Testing

/// A station's events turned into the listener's lines and reconnections on
/// a virtual clock: nothing is retried by waiting, each attempt is a timer.
@Suite struct StationSupervisorTests {
    final class Connection: StationConnection {
        var reconnects = 0
        var gaveUp = false
        func reconnect() { reconnects += 1 }
        func giveUp() { gaveUp = true }
    }

    final class Fixture {
        let clock = VirtualClock(wall: WallInstant(secondsSince1970: 0))
        let connection = Connection()
        var reports: [StationSupervisor.Report] = []
        lazy var supervisor = StationSupervisor(url: "http://radio.example:8000/live", clock: clock,
                                                policy: ReconnectPolicy(jitter: 0, limit: .attempts(3))!, seed: 1) {
            [unowned self] in self.reports.append($0)
        }
        var lines: [String] {
            reports.compactMap { if case .line(let line) = $0 { line } else { nil } }
        }
    }

    @Test func aDropIsToldNamingTheURLAndRetriedAfterTheFirstDelayNotAtOnce() {
        let fixture = Fixture()
        fixture.supervisor.handle(.connected(station: "Test FM", codec: "mp3"), from: fixture.connection)
        fixture.supervisor.handle(.dropped(reason: "connection reset by peer"), from: fixture.connection)
        #expect(fixture.lines == ["http://radio.example:8000/live: connection reset by peer"])
        #expect(fixture.connection.reconnects == 0)
        fixture.clock.advance(by: .milliseconds(999))
        #expect(fixture.connection.reconnects == 0)
        fixture.clock.advance(by: .milliseconds(1))
        #expect(fixture.connection.reconnects == 1)
        #expect(fixture.lines.last == "reconnecting to Test FM, attempt 1")
        #expect(fixture.supervisor.statusLine == "reconnecting to Test FM, attempt 1")
    }

    @Test func failedAttemptsBackOffThenTheStationIsGivenUpWithALine() {
        let fixture = Fixture()
        fixture.supervisor.handle(.connected(station: nil, codec: "aac"), from: fixture.connection)
        fixture.supervisor.handle(.dropped(reason: "end of file"), from: fixture.connection)
        fixture.clock.advance(by: .seconds(1))
        fixture.supervisor.handle(.attemptFailed(reason: "connection refused"), from: fixture.connection)
        fixture.clock.advance(by: .milliseconds(1999))
        #expect(fixture.connection.reconnects == 1)
        fixture.clock.advance(by: .milliseconds(1))
        #expect(fixture.connection.reconnects == 2)
        fixture.supervisor.handle(.attemptFailed(reason: "connection refused"), from: fixture.connection)
        fixture.clock.advance(by: .seconds(4))
        #expect(fixture.connection.reconnects == 3)
        #expect(!fixture.connection.gaveUp)
        fixture.supervisor.handle(.attemptFailed(reason: "connection refused"), from: fixture.connection)
        #expect(fixture.connection.gaveUp)
        // No name sent: the host names the station.
        #expect(fixture.lines == ["http://radio.example:8000/live: end of file",
                                  "reconnecting to radio.example, attempt 1",
                                  "reconnecting to radio.example, attempt 2",
                                  "reconnecting to radio.example, attempt 3",
                                  "gave up on radio.example after 3 attempts: connection refused"])
    }

    @Test func audioAgainEndsTheRetriesAndTheNextDropCountsFromOne() {
        let fixture = Fixture()
        fixture.supervisor.handle(.connected(station: "Test FM", codec: "mp3"), from: fixture.connection)
        fixture.supervisor.handle(.dropped(reason: "timed out"), from: fixture.connection)
        fixture.clock.advance(by: .seconds(1))
        fixture.supervisor.handle(.connected(station: "Test FM", codec: "mp3"), from: fixture.connection)
        #expect(fixture.reports.contains(.connected(station: "Test FM", codec: "mp3", again: true)))
        #expect(fixture.supervisor.statusLine == nil)
        fixture.clock.advance(by: .seconds(60))
        #expect(fixture.connection.reconnects == 1)
        fixture.supervisor.handle(.dropped(reason: "timed out"), from: fixture.connection)
        fixture.clock.advance(by: .seconds(1))
        #expect(fixture.lines.last == "reconnecting to Test FM, attempt 1")
    }

    @Test func titlesCarryTheStationsNameAndACancelledStationIsNotTriedAgain() {
        let fixture = Fixture()
        fixture.supervisor.handle(.connected(station: "Test FM", codec: "mp3"), from: fixture.connection)
        fixture.supervisor.handle(.title("Artist - Song"), from: fixture.connection)
        #expect(fixture.reports.last == .title("Artist - Song", station: "Test FM"))
        fixture.supervisor.handle(.dropped(reason: "timed out"), from: fixture.connection)
        fixture.supervisor.cancel()
        fixture.clock.advance(by: .seconds(60))
        #expect(fixture.connection.reconnects == 0)
    }
}
