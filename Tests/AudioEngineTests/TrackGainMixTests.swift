@testable import AudioEngine
import CAllocationCounter
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The per-track gain (ReplayGain) in the writer's mix: each mark takes
/// effect on its ring index exactly, whatever the period, a flush applies the
/// marks it skips, a rewind takes the last one back, and none of it allocates.
@Suite(.serialized) struct TrackGainMixTests {
    let channels = 2

    final class Mixer {
        let media = SPSCRing(minimumCapacity: 1 << 15, slotBytes: 4)
        let link: WriterLink
        let context: UnsafeMutablePointer<WriterContext>
        var control: UnsafeMutablePointer<WriterControl> { link.control }

        init(period: Int) {
            link = WriterLink(media: media, voice: SPSCRing(minimumCapacity: 1024, slotBytes: 4),
                              events: SPSCRing(minimumCapacity: 64, slotBytes: EngineEvent.slotBytes))
            context = WriterContext.allocate(link: link, channels: 2, scratchFrames: period, periodFrames: period)
        }

        deinit { WriterContext.free(context) }

        func mark(_ gain: Float, at index: Int) -> Bool { control.pointee.requestTrackGain(gain, fromRingIndex: index) }

        var marksApplied: Int { control.pointee.trackGainMarksApplied.load(ordering: .relaxed) }

        /// `frames` frames of a constant 1000 (both channels) into the ring.
        func push(_ frames: Int) {
            var left = frames
            while left > 0 {
                let region = media.producer.writableRegion(maxSlots: left)
                let count = region.count / 4
                let samples = region.baseAddress!.assumingMemoryBound(to: Int16.self)
                for index in 0..<(count * 2) { samples[index] = 1000 }
                media.producer.commit(count)
                left -= count
            }
        }

        /// Mixes until `frames` frames came out; the left channel's samples.
        /// `delay`: frames the "device" holds unheard, which the ring keeps for a rewind.
        func mix(_ frames: Int, period: Int, delay: Int = 0) -> [Int16] {
            var out: [Int16] = []
            while out.count < frames {
                let count = context.pointee.mix(maxFrames: min(period, frames - out.count))
                guard count > 0 else { break }
                for frame in 0..<count { out.append(context.pointee.scratch[frame * 2]) }
                context.pointee.commit(count)
                context.pointee.publishHeard(delay: delay)
            }
            return out
        }
    }

    @Test("a mark's gain starts on its ring index exactly, with any period", arguments: [64, 256, 1000])
    func marksApplyOnTheirFrame(period: Int) {
        let mixer = Mixer(period: period)
        #expect(mixer.mark(0.5, at: 0))
        #expect(mixer.mark(2, at: 777))
        #expect(mixer.mark(1, at: 1500))
        mixer.push(2000)
        let out = mixer.mix(2000, period: period)
        #expect(out.count == 2000)
        #expect(out[0..<777].allSatisfy { $0 == 500 })
        #expect(out[777..<1500].allSatisfy { $0 == 2000 })
        #expect(out[1500...].allSatisfy { $0 == 1000 })
    }

    @Test("a rewind before the last mark plays the frames before it at the gain before it, then the mark again")
    func rewindTakesTheMarkBack() {
        let mixer = Mixer(period: 256)
        #expect(mixer.mark(0.5, at: 1000))
        mixer.push(3000)
        let first = mixer.mix(1200, period: 256, delay: 512)
        #expect(first[999] == 1000 && first[1000] == 500)
        // As the writer loop does after dropping the device's queue: back 400 frames (to 800).
        let back = mixer.context.pointee.rewindMedia(to: 800)
        #expect(back == 400)
        let again = mixer.mix(400, period: 256)
        #expect(again[0..<200].allSatisfy { $0 == 1000 } && again[200...].allSatisfy { $0 == 500 })
    }

    @Test("when every slot waits, the engine is told to wait (one slot stays spare)")
    func slotsRunOut() {
        let mixer = Mixer(period: 256)
        for index in 0..<(WriterControl.trackGainSlots - 1) {
            #expect(mixer.mark(1, at: 10_000 + index))
        }
        #expect(!mixer.mark(1, at: 20_000))
    }

    @Test("marks a flush skips apply in turn: the last one before the cursor holds")
    func flushAppliesSkippedMarks() {
        let mixer = Mixer(period: 256)
        mixer.push(1000)
        #expect(mixer.mark(0.5, at: 300))
        #expect(mixer.mark(0.25, at: 600))
        // Everything is discarded (a seek) and new frames follow at 1000 with their own gain.
        mixer.context.pointee.mediaStopped = true
        mixer.control.pointee.mediaFlushRequest.add(1, ordering: .releasing)
        mixer.context.pointee.serviceFlushes()
        mixer.context.pointee.mediaStopped = false
        #expect(mixer.mark(4, at: 1200))
        mixer.push(400)
        let out = mixer.mix(400, period: 256)
        #expect(out[0..<200].allSatisfy { $0 == 250 } && out[200...].allSatisfy { $0 == 4000 })
    }

    @Test(.enabled(if: interlude_allocations_available() != 0))
    func marksAllocateNothingOnTheMixingThread() {
        let mixer = Mixer(period: 256)
        var next = 0
        var gains: [Float] = [0.5, 2, 0.8, 1.5]
        var out = 0
        interlude_allocations_begin_window()
        defer { interlude_allocations_end_window() }
        for index in 0..<4000 {
            // The engine's side: a mark every 3,000 frames, and the frames.
            if mixer.media.producer.freeSlots() > 1024 {
                let at = mixer.media.producer.writeIndex()
                if at >= next {
                    _ = mixer.mark(gains[index % 4], at: at)
                    next = at + 3000
                }
                mixer.push(1024)
            }
            if index % 500 == 499 {
                let written = mixer.control.pointee.mediaFramesWritten.load(ordering: .relaxed)
                interlude_allocations_mark_this_thread(1)
                _ = mixer.context.pointee.rewindMedia(to: written - 300)
                interlude_allocations_mark_this_thread(0)
            }
            interlude_allocations_mark_this_thread(1)
            let frames = mixer.context.pointee.mix(maxFrames: 256)
            mixer.context.pointee.commit(frames)
            mixer.context.pointee.publishHeard(delay: 512)
            interlude_allocations_mark_this_thread(0)
            out += frames
        }
        gains.removeAll()
        let counted = interlude_allocations_counted()
        #expect(counted == 0, "allocations on the mixing thread: \(counted)")
        #expect(mixer.marksApplied > 100)
        #expect(out > 500_000)
    }
}
