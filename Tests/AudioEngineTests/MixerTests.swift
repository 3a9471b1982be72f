@testable import AudioEngine
import Testing

/// The writer's mixer (shared by the ALSA thread and the file sink), driven
/// directly: media ramps, exact stop frames, flushes, ducking, the voice.
@Suite struct MixerTests {
    final class Rig {
        let media = SPSCRing(minimumCapacity: 4096, slotBytes: 2)
        let voice = SPSCRing(minimumCapacity: 4096, slotBytes: 2)
        let events = SPSCRing(minimumCapacity: 16, slotBytes: EngineEvent.slotBytes)
        let control: UnsafeMutablePointer<WriterControl>
        let context: UnsafeMutablePointer<WriterContext>

        init() {
            // Through the control block's own pair: its init allocates the
            // track-gain marks, which only `WriterControl.deallocate` frees.
            control = WriterControl.allocate()
            context = WriterContext.allocate(control: control, audio: media.consumer, voice: voice.consumer,
                                             events: events.producer, channels: 1, scratchFrames: 1024,
                                             periodFrames: 1024)
        }

        deinit {
            WriterContext.free(context)
            WriterControl.deallocate(control)
        }

        func push(_ samples: [Int16], to ring: SPSCRing) {
            var remaining = samples[...]
            while !remaining.isEmpty {
                let region = ring.producer.writableRegion(maxSlots: remaining.count)
                let count = region.count / 2
                precondition(count > 0)
                let typed = region.bindMemory(to: Int16.self)
                for index in 0..<count { typed[index] = remaining[remaining.startIndex + index] }
                ring.producer.commit(count)
                remaining = remaining.dropFirst(count)
            }
        }

        var mediaStopped: Bool { control.pointee.mediaStopped.load(ordering: .relaxed) }
        var voiceStopped: Bool { control.pointee.voiceStopped.load(ordering: .relaxed) }
        var mediaStoppedAt: Int { control.pointee.mediaStoppedAt.load(ordering: .relaxed) }
        var mediaWritten: Int { control.pointee.mediaFramesWritten.load(ordering: .relaxed) }
        var flushAck: Int { control.pointee.mediaFlushAck.load(ordering: .relaxed) }
        var heard: Int { control.pointee.heardFrames.load(ordering: .relaxed) }

        /// Mixes and commits up to `frames` frames; returns the samples.
        func render(_ frames: Int) -> [Int16] {
            let count = context.pointee.mix(maxFrames: frames)
            let output = Array(UnsafeBufferPointer(start: context.pointee.scratch, count: count))
            context.pointee.commit(count)
            context.pointee.publishHeard(delay: 0)
            return output
        }
    }

    @Test func unityMediaPassesThroughBitExact() {
        let rig = Rig()
        let samples: [Int16] = [1, -1, 32767, -32768, 12345, -12345, 0, 7]
        rig.push(samples, to: rig.media)
        #expect(rig.render(100) == samples)
        #expect(rig.mediaWritten == 8)
    }

    @Test func pauseFadesLinearlyAndStopsAtTheFrameTheFadeReachesSilence() {
        let rig = Rig()
        rig.push([Int16](repeating: 1000, count: 100), to: rig.media)
        rig.control.pointee.mediaFadeStepBits.store(GainRamp.step(overFrames: 4).bitPattern, ordering: .relaxed)
        rig.control.pointee.mediaRun.store(false, ordering: .relaxed)
        let output = rig.render(10)
        // Four media frames fade 750, 500, 250, 0; then silence, media untouched.
        #expect(output == [750, 500, 250, 0, 0, 0, 0, 0, 0, 0])
        #expect(rig.mediaStopped)
        #expect(rig.mediaStoppedAt == 4)
        #expect(rig.media.count == 96)
        // While stopped, more rendering takes nothing from the media ring.
        #expect(rig.render(50) == [Int16](repeating: 0, count: 50))
        #expect(rig.media.count == 96)
    }

    @Test func aFlushWhileStoppedEmptiesTheMediaRingAndResumeFadesIn() {
        let rig = Rig()
        rig.push([Int16](repeating: 1000, count: 20), to: rig.media)
        rig.control.pointee.mediaFadeStepBits.store(Float(1).bitPattern, ordering: .relaxed)
        rig.control.pointee.mediaRun.store(false, ordering: .relaxed)
        _ = rig.render(5)
        rig.control.pointee.mediaFlushRequest.store(1, ordering: .relaxed)
        _ = rig.render(1)
        #expect(rig.flushAck == 1)
        #expect(rig.media.count == 0)
        rig.push([Int16](repeating: 2000, count: 8), to: rig.media)
        rig.control.pointee.mediaFadeStepBits.store(GainRamp.step(overFrames: 4).bitPattern, ordering: .relaxed)
        rig.control.pointee.mediaRun.store(true, ordering: .relaxed)
        #expect(rig.render(8) == [500, 1000, 1500, 2000, 2000, 2000, 2000, 2000])
        #expect(!rig.mediaStopped)
    }

    @Test func anExclusiveVoiceStartsOnlyAfterTheMediaStoppedAndMediaWaitsForItToEnd() {
        let rig = Rig()
        rig.push([Int16](repeating: 1000, count: 100), to: rig.media)
        rig.push([Int16](repeating: 300, count: 100), to: rig.voice)
        rig.control.pointee.voiceExclusive.store(true, ordering: .relaxed)
        rig.control.pointee.voiceRun.store(true, ordering: .relaxed)
        rig.control.pointee.mediaFadeStepBits.store(GainRamp.step(overFrames: 2).bitPattern, ordering: .relaxed)
        rig.control.pointee.mediaRun.store(false, ordering: .relaxed)
        // An active exclusive voice pulls the media down first; the voice begins after.
        let first = rig.render(2)
        #expect(first == [500, 0])
        let second = rig.render(3)
        #expect(second == [300, 300, 300])
        // Media asked to run again while the voice still sounds: it stays silent.
        rig.control.pointee.mediaRun.store(true, ordering: .relaxed)
        #expect(rig.render(2) == [300, 300])
        // The voice ends (fade of one frame); then the media may come back.
        rig.control.pointee.voiceStepBits.store(Float(1).bitPattern, ordering: .relaxed)
        rig.control.pointee.voiceRun.store(false, ordering: .relaxed)
        _ = rig.render(1)
        #expect(rig.voiceStopped)
        rig.control.pointee.mediaFadeStepBits.store(Float(1).bitPattern, ordering: .relaxed)
        #expect(rig.render(2) == [1000, 1000])
    }

    @Test func duckingRampsTheMediaToTheTargetGainAndAMixingVoiceAddsOnTop() {
        let rig = Rig()
        rig.push([Int16](repeating: 10000, count: 50), to: rig.media)
        rig.push([Int16](repeating: 100, count: 50), to: rig.voice)
        rig.control.pointee.duckStepBits.store(Float(0.4).bitPattern, ordering: .relaxed)
        rig.control.pointee.duckTargetBits.store(Float(0.2).bitPattern, ordering: .relaxed)
        rig.control.pointee.voiceExclusive.store(false, ordering: .relaxed)
        rig.control.pointee.voiceRun.store(true, ordering: .relaxed)
        let output = rig.render(4)
        // Gains 0.6, 0.2, 0.2, 0.2 on the media; the voice at full level on top.
        #expect(output == [6100, 2100, 2100, 2100])
    }

    @Test func heardPositionAfterAStopExcludesTheSilenceQueuedBehindIt() {
        let rig = Rig()
        rig.push([Int16](repeating: 1000, count: 100), to: rig.media)
        _ = rig.render(10)
        rig.control.pointee.mediaFadeStepBits.store(Float(1).bitPattern, ordering: .relaxed)
        rig.control.pointee.mediaRun.store(false, ordering: .relaxed)
        _ = rig.render(20)  // one more media frame (the fade), then 19 of silence
        #expect(rig.mediaStoppedAt == 11)
        // 25 frames still queued in the device: 6 media frames, then the 19 silent ones.
        rig.context.pointee.publishHeard(delay: 25)
        #expect(rig.heard == 5)
        rig.context.pointee.publishHeard(delay: 10)
        #expect(rig.heard == 11)
    }

    @Test func aFadeOfNFramesConsumesExactlyNMediaFramesAcrossSlicesWithAVoiceWaiting() {
        let rig = Rig()
        rig.push([Int16](repeating: 1000, count: 3000), to: rig.media)
        rig.push([Int16](repeating: 300, count: 3000), to: rig.voice)
        #expect(rig.render(441).count == 441)
        rig.control.pointee.voiceExclusive.store(true, ordering: .relaxed)
        rig.control.pointee.voiceRun.store(true, ordering: .relaxed)
        rig.control.pointee.mediaFadeStepBits.store(GainRamp.step(overFrames: 1323).bitPattern, ordering: .relaxed)
        rig.control.pointee.mediaRun.store(false, ordering: .relaxed)
        var output: [Int16] = []
        for _ in 0..<4 { output += rig.render(441) }
        #expect(rig.mediaStoppedAt == 441 + 1323)
        // The last faded frame is silent; the voice follows on the next frame.
        #expect(output[1322] == 0)
        #expect(output[1323] == 300)
    }

    @Test func aDropGoesBackToTheFrameBeingHeardAndTheFadeStartsThere() {
        let rig = Rig()
        rig.push((0..<300).map { Int16($0 * 10) }, to: rig.media)
        // 100 frames written to the device, 60 of them still queued: frame 40 is heard.
        let count = rig.context.pointee.mix(maxFrames: 100)
        rig.context.pointee.commit(count)
        rig.context.pointee.publishHeard(delay: 60)
        #expect(rig.heard == 40)
        // The ring keeps every frame not yet heard, and only those.
        #expect(rig.media.count == 260)
        #expect(rig.context.pointee.oldestRetainedMediaFrame() == 40)
        // The device's queue is dropped; 5 frames still sound after it: go back to 45.
        #expect(rig.context.pointee.rewindMedia(to: 45) == 55)
        #expect(rig.mediaWritten == 45)
        rig.control.pointee.mediaFadeStepBits.store(GainRamp.step(overFrames: 4).bitPattern, ordering: .relaxed)
        rig.control.pointee.mediaRun.store(false, ordering: .relaxed)
        // The fade runs over frames 45...48 and the media stops after frame 48.
        #expect(rig.render(6) == [338, 230, 118, 0, 0, 0])
        #expect(rig.mediaStoppedAt == 49)
    }

    @Test func aDropNeverGoesBackBeforeWhatWasHeardNorPastWhatWasWritten() {
        let rig = Rig()
        rig.push([Int16](repeating: 1000, count: 200), to: rig.media)
        let count = rig.context.pointee.mix(maxFrames: 100)
        rig.context.pointee.commit(count)
        rig.context.pointee.publishHeard(delay: 30)
        #expect(rig.context.pointee.rewindMedia(to: 10) == 30)
        #expect(rig.mediaWritten == 70)
        #expect(rig.context.pointee.rewindMedia(to: 500) == 0)
        #expect(rig.mediaWritten == 70)
    }

    @Test func theUserVolumeRampsToItsTargetAndMultipliesWithDucking() {
        let rig = Rig()
        rig.push([Int16](repeating: 10000, count: 50), to: rig.media)
        rig.control.pointee.volumeStepBits.store(Float(0.25).bitPattern, ordering: .relaxed)
        rig.control.pointee.volumeTargetBits.store(Float(0.5).bitPattern, ordering: .relaxed)
        #expect(rig.render(3) == [7500, 5000, 5000])
        rig.control.pointee.duckStepBits.store(Float(1).bitPattern, ordering: .relaxed)
        rig.control.pointee.duckTargetBits.store(Float(0.5).bitPattern, ordering: .relaxed)
        #expect(rig.render(2) == [2500, 2500])
        // Back to unity: the exact copy again.
        rig.control.pointee.duckTargetBits.store(Float(1).bitPattern, ordering: .relaxed)
        rig.control.pointee.volumeStepBits.store(Float(1).bitPattern, ordering: .relaxed)
        rig.control.pointee.volumeTargetBits.store(Float(1).bitPattern, ordering: .relaxed)
        #expect(rig.render(2) == [10000, 10000])
    }
}
