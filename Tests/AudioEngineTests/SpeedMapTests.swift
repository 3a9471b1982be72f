import AudioEngine
import Testing

/// The pure parts of speed: the 0.05 grid and the output-to-source map.
@Suite struct PlaybackSpeedTests {
    @Test func acceptsTheGridFromHalfToThreeAndNothingElse() {
        #expect(PlaybackSpeed(0.5)?.twentieths == 10)
        #expect(PlaybackSpeed(3.0)?.twentieths == 60)
        #expect(PlaybackSpeed(1.15)?.twentieths == 23)
        #expect(PlaybackSpeed(parsing: "1.25x")?.value == 1.25)
        for rejected in [0.45, 3.05, 1.03, 2.01, -1, .nan, .infinity] {
            #expect(PlaybackSpeed(rejected) == nil, "\(rejected)")
        }
        #expect(PlaybackSpeed(parsing: "fast") == nil)
    }

    @Test func stepsClampAtTheEndsAndPrintTheirValue() {
        #expect(PlaybackSpeed.normal.faster.description == "1.05x")
        #expect(PlaybackSpeed.normal.slower.description == "0.95x")
        #expect(PlaybackSpeed.maximum.faster == .maximum)
        #expect(PlaybackSpeed.minimum.slower == .minimum)
        #expect(PlaybackSpeed(1.5)!.description == "1.5x")
        #expect(PlaybackSpeed(2.0)!.description == "2.0x")
    }
}

@Suite struct SpeedMapTests {
    /// The inverse an aimed pause needs: the first output frame that reaches a
    /// source frame, across a speed change, inside a point's segment and past the last.
    @Test func theOutputFrameOfASourceFrameIsTheFirstThatReachesIt() throws {
        var map = SpeedMap()
        map.change(to: try #require(PlaybackSpeed(1.5)), atOutput: 44100)
        map.change(to: try #require(PlaybackSpeed(0.75)), atOutput: 88200)
        for source in [0, 1, 44100, 50_000, 110_250, 110_251, 200_000, 1_000_001] {
            let output = map.output(atSource: source)
            #expect(map.source(atOutput: output) >= source, "source \(source) -> output \(output)")
            #expect(output == 0 || map.source(atOutput: output - 1) < source, "source \(source) -> output \(output)")
        }
    }

    @Test func atNormalSpeedOutputIsSourceFrameForFrame() {
        let map = SpeedMap()
        for output in [0, 1, 44099, 10_000_000] { #expect(map.source(atOutput: output) == output) }
    }

    @Test func aSpeedChangeBendsTheMapWithoutAJump() {
        var map = SpeedMap()
        map.change(to: PlaybackSpeed(2.0)!, atOutput: 1000)
        #expect(map.source(atOutput: 999) == 999)
        #expect(map.source(atOutput: 1000) == 1000)
        #expect(map.source(atOutput: 1500) == 2000)
        map.change(to: PlaybackSpeed(0.5)!, atOutput: 2000)
        #expect(map.source(atOutput: 2000) == 3000)
        #expect(map.source(atOutput: 2100) == 3050)
    }

    @Test func anAnchorCorrectsTheMapByInterpolatingTheSegmentBefore() {
        var map = SpeedMap(speed: PlaybackSpeed(2.0)!)
        // The stretcher drained: output 1000 was really source 1990, not 2000.
        map.anchor(output: 1000, source: 1990)
        #expect(map.source(atOutput: 500) == 995)
        #expect(map.source(atOutput: 1000) == 1990)
        #expect(map.source(atOutput: 1100) == 2190)
        // Never backwards.
        map.anchor(output: 1200, source: 100)
        #expect(map.source(atOutput: 1200) == 1990)
    }

    @Test func forgettingHeardPointsKeepsTheValuesAfterThem() {
        var map = SpeedMap()
        for step in 1...40 { map.change(to: step % 2 == 0 ? .normal : PlaybackSpeed(1.5)!, atOutput: step * 100) }
        let before = map.source(atOutput: 3456)
        map.forget(before: 3000)
        #expect(map.points.count < 12)
        #expect(map.source(atOutput: 3456) == before)
    }
}
