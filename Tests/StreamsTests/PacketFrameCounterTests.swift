import Streams
import Testing

@Suite struct PacketFrameCounterTests {
    /// MP3 at 44.1 kHz in the mp3 demuxer's time base (1/14,112,000): 1152 frames a packet.
    @Test func mp3PacketsAreTheirFramesAtTheSameRate() throws {
        var counter = try #require(PacketFrameCounter(timeBaseNumerator: 1, timeBaseDenominator: 14_112_000,
                                                      outputRate: 44_100, fallbackFrames: 1152))
        for _ in 0..<100 { #expect(counter.frames(forDuration: 1152 * 320) == 1152) }
    }

    /// Opus's 960 frames at 48 kHz to 44.1 kHz: 882 each, exactly.
    @Test func aRateChangeIsExact() throws {
        var counter = try #require(PacketFrameCounter(timeBaseNumerator: 1, timeBaseDenominator: 48_000,
                                                      outputRate: 44_100, fallbackFrames: 882))
        for _ in 0..<10 { #expect(counter.frames(forDuration: 960) == 882) }
    }

    /// AAC's 1024 frames at 48 kHz to 44.1 kHz are 940.8: the remainder is carried, so no drift.
    @Test func theRemainderIsCarriedSoTheLabelsDoNotDrift() throws {
        var counter = try #require(PacketFrameCounter(timeBaseNumerator: 1, timeBaseDenominator: 48_000,
                                                      outputRate: 44_100, fallbackFrames: 941))
        var total = 0
        for _ in 0..<48_000 { total += counter.frames(forDuration: 1024) }
        // 48,000 packets of 1024 frames at 48 kHz are 1024 s: 45,158,400 frames at 44.1 kHz.
        #expect(total == 45_158_400)
    }

    @Test func anUnknownOrOutOfRangeDurationCountsAsTheFallback() throws {
        var counter = try #require(PacketFrameCounter(timeBaseNumerator: 1, timeBaseDenominator: 44_100,
                                                      outputRate: 44_100, fallbackFrames: 1152))
        #expect(counter.frames(forDuration: 0) == 1152)
        #expect(counter.frames(forDuration: -5) == 1152)
        #expect(counter.frames(forDuration: 44_100 * 11) == 1152)
        #expect(counter.frames(forDuration: .max) == 1152)
        #expect(counter.frames(forDuration: 44_100 * 10) == 441_000)
    }

    @Test func aTimeBaseOrRateOutOfRangeIsRefused() {
        #expect(PacketFrameCounter(timeBaseNumerator: 0, timeBaseDenominator: 1, outputRate: 44_100, fallbackFrames: 1) == nil)
        #expect(PacketFrameCounter(timeBaseNumerator: 1, timeBaseDenominator: -1, outputRate: 44_100, fallbackFrames: 1) == nil)
        #expect(PacketFrameCounter(timeBaseNumerator: 1, timeBaseDenominator: 1, outputRate: 1_000, fallbackFrames: 1) == nil)
        #expect(PacketFrameCounter(timeBaseNumerator: 1, timeBaseDenominator: 1, outputRate: 44_100, fallbackFrames: 0)?.fallbackFrames == 1)
    }
}
