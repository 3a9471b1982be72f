import Streams
import Testing

/// `StationTitleTimeline`: the title shown is that of the audio heard.
@Suite struct StationTitleTimelineTests {
    @Test("the title of a frame is the last to arrive at or before it")
    func titleOfAFrame() {
        var timeline = StationTitleTimeline()
        #expect(timeline.title(atFrame: 0) == nil)
        timeline.arrived("First", atFrame: 100)
        timeline.arrived("Second", atFrame: 5_000)
        #expect(timeline.title(atFrame: 99) == nil)
        #expect(timeline.title(atFrame: 100) == "First")
        #expect(timeline.title(atFrame: 4_999) == "First")
        #expect(timeline.title(atFrame: 5_000) == "Second")
        // Back in the buffer, the title of that moment again.
        #expect(timeline.title(atFrame: 200) == "First")
    }

    @Test("the same title sent again is no new entry")
    func repeatsAreOneEntry() {
        var timeline = StationTitleTimeline()
        timeline.arrived("Same", atFrame: 0)
        timeline.arrived("Same", atFrame: 10)
        #expect(timeline.count == 1)
        timeline.arrived("Other", atFrame: 20)
        timeline.arrived("Same", atFrame: 30)
        #expect(timeline.count == 3)
        #expect(timeline.title(atFrame: 25) == "Other")
    }

    @Test("a frame earlier than the last starts a new connection's timeline")
    func newConnection() {
        var timeline = StationTitleTimeline()
        timeline.arrived("Old", atFrame: 90_000)
        timeline.arrived("New", atFrame: 10)
        #expect(timeline.count == 1)
        #expect(timeline.title(atFrame: 100) == "New")
        #expect(timeline.title(atFrame: 5) == nil)
    }

    @Test("forgetting keeps the title in effect at the frame and what follows")
    func forget() {
        var timeline = StationTitleTimeline()
        for (index, title) in ["A", "B", "C", "D"].enumerated() { timeline.arrived(title, atFrame: index * 100) }
        timeline.forget(before: 250)
        #expect(timeline.count == 2)
        #expect(timeline.title(atFrame: 250) == "C")
        #expect(timeline.title(atFrame: 300) == "D")
        timeline.forget(before: 0)
        #expect(timeline.count == 2)
    }

    @Test("a station that changes its title at every block keeps the newest, up to the limit")
    func limit() {
        var timeline = StationTitleTimeline()
        for frame in 0..<(StationTitleTimeline.limit + 10) { timeline.arrived("t\(frame)", atFrame: frame) }
        #expect(timeline.count == StationTitleTimeline.limit)
        #expect(timeline.title(atFrame: 5) == nil)
        #expect(timeline.title(atFrame: StationTitleTimeline.limit + 9) == "t\(StationTitleTimeline.limit + 9)")
    }
}
