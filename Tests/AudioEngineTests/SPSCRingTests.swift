import AudioEngine
import Testing

@Suite struct SPSCRingTests {
    @Test func capacityRoundsUpToAPowerOfTwo() {
        #expect(SPSCRing(minimumCapacity: 1000, slotBytes: 4).capacity == 1024)
        #expect(SPSCRing(minimumCapacity: 1024, slotBytes: 4).capacity == 1024)
        #expect(SPSCRing(minimumCapacity: 1, slotBytes: 4).capacity == 1)
    }

    @Test func everySlotIsUsableSoAFullRingHoldsItsWholeCapacity() {
        let ring = SPSCRing(minimumCapacity: 8, slotBytes: 2)
        let region = ring.producer.writableRegion()
        #expect(region.count == 16)
        ring.producer.commit(8)
        #expect(ring.producer.freeSlots() == 0)
        #expect(ring.producer.writableRegion().count == 0)
        #expect(ring.consumer.filledSlots() == 8)
    }

    @Test func regionsStopAtTheWrapPointAndContinueFromTheStart() {
        let ring = SPSCRing(minimumCapacity: 8, slotBytes: 1)
        ring.producer.commit(6)
        ring.consumer.release(6)
        // Six slots in: the contiguous region is the two slots before the wrap.
        #expect(ring.producer.writableRegion().count == 2)
        ring.producer.commit(2)
        #expect(ring.producer.writableRegion().count == 6)
        #expect(ring.consumer.readableRegion().count == 2)
        ring.consumer.release(2)
        #expect(ring.consumer.readableRegion().count == 0)
    }

    @Test func maxSlotsLimitsARegion() {
        let ring = SPSCRing(minimumCapacity: 16, slotBytes: 4)
        #expect(ring.producer.writableRegion(maxSlots: 5).count == 20)
        ring.producer.commit(5)
        #expect(ring.consumer.readableRegion(maxSlots: 3).count == 12)
    }

    @Test func pushFailsWhenFullAndPopFailsWhenEmpty() {
        let ring = SPSCRing(minimumCapacity: 2, slotBytes: 8)
        var value: Int64 = 7
        #expect(withUnsafeBytes(of: &value) { ring.producer.push($0.baseAddress!) })
        value = 8
        #expect(withUnsafeBytes(of: &value) { ring.producer.push($0.baseAddress!) })
        #expect(!withUnsafeBytes(of: &value) { ring.producer.push($0.baseAddress!) })
        var out: Int64 = 0
        #expect(withUnsafeMutableBytes(of: &out) { ring.consumer.pop(into: $0.baseAddress!) })
        #expect(out == 7)
        #expect(withUnsafeMutableBytes(of: &out) { ring.consumer.pop(into: $0.baseAddress!) })
        #expect(out == 8)
        #expect(!withUnsafeMutableBytes(of: &out) { ring.consumer.pop(into: $0.baseAddress!) })
    }

    @Test func discardAllEmptiesTheRing() {
        let ring = SPSCRing(minimumCapacity: 8, slotBytes: 4)
        ring.producer.commit(5)
        #expect(ring.consumer.discardAll() == 5)
        #expect(ring.count == 0)
        #expect(ring.producer.freeSlots() == 8)
    }
}
