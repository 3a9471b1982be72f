import AudioEngine
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Two threads through the ring at full speed. `make test` also runs this suite
/// under ThreadSanitizer (`swift test --sanitize=thread --filter RingStressTests`),
/// which would report any missing acquire/release pairing as a data race.
///
/// Each producer runs on a thread of its own (Foundation `Thread`): on the shared
/// Dispatch pool, a spinning consumer can occupy the very worker its producer
/// needs on a two-core machine, and the test never finishes.
@Suite(.serialized) struct RingStressTests {
    /// A stereo frame carrying its own sequence number: the low and high 16 bits.
    static func frame(_ n: Int) -> (Int16, Int16) {
        (Int16(truncatingIfNeeded: n), Int16(truncatingIfNeeded: n >> 16))
    }

    @Test func tenMillionFramesArriveInOrderAcrossTwoThreads() {
        let total = 10_000_000
        let ring = SPSCRing(minimumCapacity: 4096, slotBytes: 4)
        let producer = ring.producer
        let consumer = ring.consumer

        // Producer: regions of varying size, so wrap-around happens at every offset.
        let produced = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var next = 0
            var chunk = 1
            while next < total {
                let region = producer.writableRegion(maxSlots: min(chunk, total - next))
                let frames = region.count / 4
                // Full: let the consumer run (on a loaded two-core machine a spinning
                // thread would otherwise take the core the other one needs).
                if frames == 0 { sched_yield(); continue }
                let samples = region.bindMemory(to: Int16.self)
                for index in 0..<frames {
                    let (low, high) = Self.frame(next + index)
                    samples[index * 2] = low
                    samples[index * 2 + 1] = high
                }
                producer.commit(frames)
                next += frames
                chunk = chunk % 997 + 1
            }
            produced.signal()
        }

        // Consumer: checks every frame's sequence number.
        var expected = 0
        var mismatches = 0
        var firstMismatch: Int?
        var chunk = 3
        while expected < total {
            let region = consumer.readableRegion(maxSlots: chunk)
            let frames = region.count / 4
            if frames == 0 { sched_yield(); continue }
            let samples = region.bindMemory(to: Int16.self)
            for index in 0..<frames {
                let (low, high) = Self.frame(expected + index)
                if samples[index * 2] != low || samples[index * 2 + 1] != high {
                    mismatches += 1
                    if firstMismatch == nil { firstMismatch = expected + index }
                }
            }
            consumer.release(frames)
            expected += frames
            chunk = chunk % 1013 + 1
        }
        produced.wait()
        #expect(mismatches == 0, "first out-of-order frame: \(String(describing: firstMismatch))")
        #expect(expected == total)
        #expect(ring.count == 0)
    }

    @Test func eventsPassThroughTheRingInOrderAcrossTwoThreads() {
        let total = 200_000
        let ring = SPSCRing(minimumCapacity: 64, slotBytes: MemoryLayout<EngineEvent>.stride)
        let producer = ring.producer
        let consumer = ring.consumer
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var sent = 0
            while sent < total {
                var event = EngineEvent(kind: .underrun, frame: sent, value: -sent)
                if withUnsafeBytes(of: &event, { producer.push($0.baseAddress!) }) { sent += 1 } else { sched_yield() }
            }
            done.signal()
        }
        var received = 0
        var wrong = 0
        var event = EngineEvent(kind: .drained, frame: 0)
        while received < total {
            if withUnsafeMutableBytes(of: &event, { consumer.pop(into: $0.baseAddress!) }) {
                if event.frame != Int64(received) || event.value != Int64(-received) || event.kind != .underrun {
                    wrong += 1
                }
                received += 1
            } else {
                sched_yield()
            }
        }
        done.wait()
        #expect(wrong == 0)
    }
}
