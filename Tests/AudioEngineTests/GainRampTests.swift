@testable import AudioEngine
import Testing

@Suite struct GainRampTests {
    let source: [Int16] = [1000, -1000, 32767, -32768, 123, -123, 0, 5]

    func run(_ ramp: inout GainRamp, target: Float, frames: Int = 4) -> [Int16] {
        var output = [Int16](repeating: 0, count: frames * 2)
        source.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                ramp.apply(from: input.baseAddress!, to: out.baseAddress!, frames: frames, channels: 2, target: target)
            }
        }
        return output
    }

    @Test func unityGainPassesSamplesThroughBitExact() {
        var ramp = GainRamp()
        #expect(run(&ramp, target: 1) == source)
    }

    @Test func zeroGainIsDigitalSilence() {
        var ramp = GainRamp(current: 0)
        #expect(run(&ramp, target: 0) == [Int16](repeating: 0, count: 8))
    }

    @Test func rampMovesByItsStepEachFrameAndStopsAtTheTarget() {
        var ramp = GainRamp(current: 1, stepPerFrame: 0.25)
        let output = run(&ramp, target: 0)
        // Gains 0.75, 0.5, 0.25, 0 on the four frames.
        #expect(output == [750, -750, 16384, -16384, 31, -31, 0, 0])
        #expect(ramp.current == 0)
    }

    @Test func fixedGainScalesAndRoundsHalfAwayFromZero() {
        var ramp = GainRamp(current: 0.2, stepPerFrame: 1)
        let output = run(&ramp, target: 0.2)
        #expect(output == [200, -200, 6553, -6554, 25, -25, 0, 1])
    }
}
