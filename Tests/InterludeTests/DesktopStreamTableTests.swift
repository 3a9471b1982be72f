import DesktopIntegration
import AudioSession
@testable import Interlude
import Testing

/// Which desktop streams interrupt, on explicit times (microseconds): the
/// table behind the sound-server source, without a server.
struct DesktopStreamTableTests {
    static let me: Int32 = 4242

    func stream(_ index: UInt32, role: String?, corked: Bool = false, pid: Int32 = 1, program: String = "paplay") -> DesktopStream {
        DesktopStream(index: index, role: role, program: program, processID: pid, corked: corked)
    }

    func table() -> DesktopStreamTable {
        DesktopStreamTable(roles: DesktopInterruptionSettings.defaultRoles, ownProcessID: Self.me)
    }

    @Test func rolesInTheTableCountWithTheirClassAndOthersDoNot() {
        var streams = table()
        streams.seen(stream(1, role: "phone", program: "firefox"), now: 0)
        streams.seen(stream(2, role: "music"), now: 0)
        streams.seen(stream(3, role: nil), now: 0)
        streams.seen(stream(4, role: "alarm", pid: Self.me), now: 0)
        streams.seen(stream(5, role: "event"), now: 0)
        #expect(streams.counting.map(\.stream.index) == [1, 5])
        #expect(streams.counting.map(\.priorityClass) == [.call, .navigation])
        #expect(streams.counting.first?.stream.program == "firefox")
        streams.removed(1)
        #expect(streams.counting.map(\.stream.index) == [5])
        streams.removeAll()
        #expect(streams.counting.isEmpty)
    }

    @Test("another Interlude's stream never counts, not even as phone while its alarm rings (it pauses this player over MPRIS)")
    func anotherInterludesAlarmStreamDoesNotCount() {
        var streams = table()
        streams.seen(DesktopStream(index: 1, role: "phone", program: "Interlude", processID: 77, corked: false,
                                   applicationID: "interlude"), now: 0)
        streams.seen(DesktopStream(index: 2, role: "phone", program: "Interlude", processID: 78, corked: false,
                                   applicationID: "org.example.softphone"), now: 0)
        #expect(streams.counting.map(\.stream.index) == [2])
    }

    @Test func aStreamCorkedForTheGraceStopsCountingAndCountsAgainWhenUncorked() {
        var streams = table()
        let grace = DesktopStreamTable.corkGraceMicroseconds
        streams.seen(stream(7, role: "phone"), now: 0)
        streams.seen(stream(7, role: "phone", corked: true), now: 1_000_000)
        #expect(streams.nextExpiry == 1_000_000 + grace)
        streams.expire(now: 1_000_000 + grace - 1)
        #expect(streams.counting.count == 1, "a momentary cork changes nothing")
        streams.expire(now: 1_000_000 + grace)
        #expect(streams.counting.isEmpty)
        #expect(streams.nextExpiry == nil)
        streams.seen(stream(7, role: "phone"), now: 9_000_000)
        #expect(streams.counting.map(\.stream.index) == [7])
    }

    @Test func aCorkAndUncorkWithinTheGraceKeepsItCounting() {
        var streams = table()
        streams.seen(stream(7, role: "alarm"), now: 0)
        streams.seen(stream(7, role: "alarm", corked: true), now: 100)
        streams.seen(stream(7, role: "alarm"), now: 200)
        streams.expire(now: 10 * DesktopStreamTable.corkGraceMicroseconds)
        #expect(streams.counting.count == 1)
    }

    @Test func aStreamThatStartsCorkedCountsOnlyOnceItPlays() {
        var streams = table()
        streams.seen(stream(9, role: "phone", corked: true), now: 0)
        #expect(streams.counting.isEmpty)
        #expect(streams.nextExpiry == nil)
        streams.seen(stream(9, role: "phone"), now: 500)
        #expect(streams.counting.count == 1)
    }

    @Test func aRoleChangedOutOfTheTableStopsCounting() {
        var streams = table()
        streams.seen(stream(3, role: "phone"), now: 0)
        streams.seen(stream(3, role: "music"), now: 10)
        #expect(streams.counting.isEmpty)
    }
}
