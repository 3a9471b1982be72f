import InterludeCore
import Rooms
import Testing

/// An alarm naming rooms, on a virtual clock: when the other rooms go
/// silent and come back, as the rooms hear the stream `latency` late (a
/// pause's fade `pauseLatency` late).
struct RoomAlarmTests {
    static let latency = Duration.milliseconds(1200)
    static let pauseLatency = Duration.milliseconds(1000)
    static let fade = Duration.milliseconds(30)
    static let gap = Duration.milliseconds(400)

    static let house = [
        SnapcastRoom(id: "kitchen", streamID: "Interlude", percent: 70),
        SnapcastRoom(id: "b8:27:eb:00:00:01", name: "Bedroom", streamID: "Interlude", percent: 40, muted: false),
        SnapcastRoom(id: "hall", groupName: "Downstairs", streamID: "Interlude", percent: 100, muted: true),
        SnapcastRoom(id: "garage", streamID: "Radio", percent: 90),
        SnapcastRoom(id: "attic", streamID: "Interlude", connected: false),
    ]

    final class Harness {
        let clock = VirtualClock(wall: WallInstant(secondsSince1970: 1_800_000_000))
        let alarm: RoomAlarm
        var sent: [(at: Duration, request: RoomAlarm.Request)] = []
        var lines: [String] = []

        init() {
            alarm = RoomAlarm(clock: clock, latency: RoomAlarmTests.latency, pauseLatency: RoomAlarmTests.pauseLatency,
                              fade: RoomAlarmTests.fade,
                              gap: RoomAlarmTests.gap, streamID: "Interlude")
            alarm.send = { [unowned self] in sent.append((clock.monotonicNow - .origin, $0)) }
            alarm.report = { [unowned self] in lines.append($0) }
        }
    }

    @Test func theOtherRoomsOnTheStreamGoSilentInTheGapBeforeTheAlarmSoundsAndComeBackInTheGapAfter() {
        let harness = Harness()
        harness.alarm.alarmBegan(naming: ["bedroom"])
        #expect(harness.sent.map(\.request) == [.status])
        harness.clock.advance(by: .milliseconds(20))
        harness.alarm.statusArrived(Self.house)
        // Nothing changes before the rooms have heard the music's fade.
        harness.clock.advance(by: .milliseconds(1200))
        #expect(harness.sent.count == 1)
        harness.clock.advance(by: .milliseconds(100))
        // Kitchen and hall (muted stays muted), not the bedroom, nor the garage on another stream, nor the attic that is gone.
        let silenced = harness.sent.dropFirst()
        #expect(silenced.map(\.request) == [.setVolume(client: "kitchen", percent: 0, muted: false),
                                            .setVolume(client: "hall", percent: 0, muted: true)])
        // Half the gap after the fade is heard: the rooms hear silence on both sides of it.
        #expect(silenced.allSatisfy { $0.at == Self.pauseLatency + Self.fade + Self.gap / 2 })
        harness.clock.advance(by: .seconds(5))
        harness.alarm.alarmEnded()
        let ended = harness.clock.monotonicNow - .origin
        harness.clock.advance(by: .seconds(2))
        let restored = harness.sent.dropFirst(3)
        #expect(restored.map(\.request) == [.setVolume(client: "kitchen", percent: 70, muted: false),
                                            .setVolume(client: "hall", percent: 100, muted: true)])
        #expect(restored.allSatisfy { $0.at == ended + Self.latency + Self.gap / 2 })
        #expect(harness.alarm.phase == .idle && harness.alarm.silenced.isEmpty)
        #expect(harness.lines.isEmpty)
    }

    @Test func roomsAreNamedByIdNameHostOrGroupWhateverTheCase() {
        let room = SnapcastRoom(id: "b8:27:eb:00:00:01", name: "Bedroom", hostName: "pi-bed", groupID: "G1",
                                groupName: "Upstairs")
        for word in ["b8:27:EB:00:00:01", "bedroom", "PI-BED", "upstairs", "g1"] { #expect(room.isNamed(word), "\(word)") }
        #expect(!room.isNamed("kitchen"))
        #expect(!SnapcastRoom(id: "x").isNamed(""))
    }

    @Test func noRoomOfThatNameRingsEverywhereAndSaysSoInOneLine() {
        let harness = Harness()
        harness.alarm.alarmBegan(naming: ["cellar"])
        harness.alarm.statusArrived(Self.house)
        harness.clock.advance(by: .seconds(10))
        harness.alarm.alarmEnded()
        harness.clock.advance(by: .seconds(10))
        #expect(harness.sent.map(\.request) == [.status])
        #expect(harness.lines == ["snapcast: no room is named 'cellar': the alarm rings in every room"])
    }

    @Test func aServerThatDoesNotAnswerLeavesEveryRoomRinging() {
        let harness = Harness()
        harness.alarm.alarmBegan(naming: ["bedroom"])
        harness.alarm.failed("127.0.0.1:1705: connection refused")
        harness.clock.advance(by: .seconds(10))
        #expect(harness.sent.map(\.request) == [.status])
        #expect(harness.lines == ["snapcast: 127.0.0.1:1705: connection refused: the alarm rings in every room"])
    }

    @Test func anAlarmOverBeforeTheOthersWereSilencedChangesNoVolume() {
        let harness = Harness()
        harness.alarm.alarmBegan(naming: ["bedroom"])
        harness.alarm.statusArrived(Self.house)
        harness.clock.advance(by: .milliseconds(500))
        harness.alarm.alarmEnded()
        harness.clock.advance(by: .seconds(5))
        #expect(harness.sent.map(\.request) == [.status])
    }

    @Test func quittingWhileTheyAreSilentGivesThemTheirVolumeAtOnce() {
        let harness = Harness()
        harness.alarm.alarmBegan(naming: ["bedroom"])
        harness.alarm.statusArrived(Self.house)
        harness.clock.advance(by: .seconds(3))
        harness.alarm.restoreNow()
        #expect(harness.sent.suffix(2).map(\.request) == [.setVolume(client: "kitchen", percent: 70, muted: false),
                                                        .setVolume(client: "hall", percent: 100, muted: true)])
        harness.clock.advance(by: .seconds(10))
        #expect(harness.sent.count == 5)
    }

    @Test func aStatusFromTheNetworkIsReadWithinBounds() throws {
        let reply = try JSONParser.parse("""
            {"id":1,"jsonrpc":"2.0","result":{"server":{"groups":[{"id":"g","name":"","stream_id":"Interlude","clients":[
              {"id":"kitchen","connected":true,"host":{"name":"pi"},"config":{"name":"","volume":{"muted":false,"percent":250}}},
              {"id":"hall","connected":false,"config":{"volume":{"muted":true,"percent":-3}}}]}]}}}
            """)
        let rooms = try SnapcastRoom.rooms(inStatusReply: reply)
        #expect(rooms == [SnapcastRoom(id: "kitchen", hostName: "pi", groupID: "g", streamID: "Interlude", percent: 100),
                          SnapcastRoom(id: "hall", groupID: "g", streamID: "Interlude", percent: 0, muted: true,
                                       connected: false)])
        #expect(throws: SnapcastReplyError.self) {
            _ = try SnapcastRoom.rooms(inStatusReply: try JSONParser.parse(#"{"id":1,"error":{"code":-32601,"message":"Method not found"}}"#))
        }
    }
}
