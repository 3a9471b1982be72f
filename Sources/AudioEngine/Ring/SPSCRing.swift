import Synchronization

/// A single-producer single-consumer lock-free ring of fixed-size slots.
///
/// A slot is `slotBytes` bytes: for audio, one interleaved frame of `channels`
/// 16-bit samples; for events, one `EngineEvent`. The ring is untyped on
/// purpose: `@_noLocks` rejects generic code (its metadata may allocate), and
/// the real-time thread must call these functions. The capacity is a power of two
/// slots. Both indices count slots forever (an `Int` does not wrap in the
/// lifetime of a process: 2^63 frames at 192 kHz is 1.5 million years), so
/// `written - read` is the fill and no slot is wasted to tell full from empty.
///
/// The storage lives in manually allocated memory with no reference counting,
/// so the real-time thread can use a half without ARC traffic. `SPSCRing`
/// owns that memory; it hands out exactly one `Producer` and one `Consumer`,
/// which are plain pointer bundles and must each be used by one thread only.
public final class SPSCRing: @unchecked Sendable {
    // @unchecked Sendable: the class only owns memory; all shared state is in
    // `Indices`, whose fields are atomics, and each half is used by one thread.

    public let capacity: Int
    public let slotBytes: Int
    let indices: UnsafeMutablePointer<Indices>
    let storage: UnsafeMutableRawPointer

    /// A ring of at least `minimumCapacity` slots of `slotBytes` bytes, its
    /// storage bound to `Int16` (audio samples) unless `slotBytes` is odd.
    public init(minimumCapacity: Int, slotBytes: Int) {
        precondition(minimumCapacity > 0 && slotBytes > 0)
        var capacity = 1
        while capacity < minimumCapacity { capacity <<= 1 }
        self.capacity = capacity
        self.slotBytes = slotBytes
        indices = .allocate(capacity: 1)
        indices.initialize(to: Indices())
        storage = .allocate(byteCount: capacity * slotBytes, alignment: 64)
        // Audio rings are read as Int16 samples; binding touches no memory. The pages
        // are first touched by the producer's writes, never by the real-time reader
        // (it only reads slots already written), and an interrupter-voice ring that
        // never sounds never costs resident memory.
        if slotBytes % 2 == 0 { storage.bindMemory(to: Int16.self, capacity: capacity * slotBytes / 2) }
    }

    deinit {
        indices.deinitialize(count: 1)
        indices.deallocate()
        storage.deallocate()
    }

    public var producer: Producer {
        Producer(indices: indices, storage: storage, mask: capacity - 1, slotBytes: slotBytes)
    }

    public var consumer: Consumer {
        Consumer(indices: indices, storage: storage, mask: capacity - 1, slotBytes: slotBytes)
    }

    /// The slots written so far but not yet read. Safe from any thread; exact only
    /// when neither half is moving.
    public var count: Int {
        indices.pointee.written.load(ordering: .acquiring) - indices.pointee.read.load(ordering: .acquiring)
    }

    /// Slots written so far, ever (the producer's absolute index). Safe from any thread.
    public var writtenIndex: Int { indices.pointee.written.load(ordering: .acquiring) }

    /// The two counters, each on its own cache line so the two threads do not
    /// invalidate each other's line on every store (false sharing).
    struct Indices: ~Copyable {
        let written = Atomic<Int>(0)
        private let padding0: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
        let read = Atomic<Int>(0)
        private let padding1: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
    }

    /// The writing half. Two-phase: ask for a contiguous region, fill it, commit.
    public struct Producer: @unchecked Sendable {
        // @unchecked Sendable: a raw-pointer bundle handed to exactly one thread.
        let indices: UnsafeMutablePointer<Indices>
        let storage: UnsafeMutableRawPointer
        let mask: Int
        public let slotBytes: Int

        /// Free slots now. The consumer may free more at any time, never fewer.
        @_noLocks
        public func freeSlots() -> Int {
            // Acquire pairs with the consumer's release in `release(_:)`: the
            // consumer has finished reading those slots before we overwrite them.
            let read = indices.pointee.read.load(ordering: .acquiring)
            let written = indices.pointee.written.load(ordering: .relaxed)
            return mask + 1 - (written - read)
        }

        /// The largest contiguous free region (up to the wrap point), at most
        /// `maxSlots` slots; its byte count is `slots * slotBytes`.
        @_noLocks
        public func writableRegion(maxSlots: Int = .max) -> UnsafeMutableRawBufferPointer {
            let free = freeSlots()
            let written = indices.pointee.written.load(ordering: .relaxed)
            let start = written & mask
            let slots = min(min(free, mask + 1 - start), maxSlots)
            return UnsafeMutableRawBufferPointer(start: storage + start * slotBytes, count: slots * slotBytes)
        }

        /// The absolute index the next committed slot gets (the producer's own count).
        @_noLocks
        public func writeIndex() -> Int { indices.pointee.written.load(ordering: .relaxed) }

        /// Publishes `slots` slots written into the region from `writableRegion`.
        @_noLocks
        public func commit(_ slots: Int) {
            let written = indices.pointee.written.load(ordering: .relaxed)
            // Release: the slot contents are visible before the consumer sees the new index.
            indices.pointee.written.store(written + slots, ordering: .releasing)
        }

        /// Copies one slot in; false when the ring is full. For small fixed-size
        /// values such as events.
        @_noLocks
        public func push(_ slot: UnsafeRawPointer) -> Bool {
            guard freeSlots() > 0 else { return false }
            let written = indices.pointee.written.load(ordering: .relaxed)
            (storage + (written & mask) * slotBytes).copyMemory(from: slot, byteCount: slotBytes)
            commit(1)
            return true
        }
    }

    /// The reading half. Two-phase: ask for a contiguous filled region, use it, release.
    public struct Consumer: @unchecked Sendable {
        // @unchecked Sendable: a raw-pointer bundle handed to exactly one thread.
        let indices: UnsafeMutablePointer<Indices>
        let storage: UnsafeMutableRawPointer
        let mask: Int
        public let slotBytes: Int

        /// Filled slots now. The producer may add more at any time, never remove.
        @_noLocks
        public func filledSlots() -> Int {
            // Acquire pairs with the producer's release in `commit(_:)`: the slot
            // contents written before that commit are visible to us.
            let written = indices.pointee.written.load(ordering: .acquiring)
            let read = indices.pointee.read.load(ordering: .relaxed)
            return written - read
        }

        /// The largest contiguous filled region (up to the wrap point), at most `maxSlots`.
        @_noLocks
        public func readableRegion(maxSlots: Int = .max) -> UnsafeRawBufferPointer {
            let filled = filledSlots()
            let read = indices.pointee.read.load(ordering: .relaxed)
            let start = read & mask
            let slots = min(min(filled, mask + 1 - start), maxSlots)
            return UnsafeRawBufferPointer(start: storage + start * slotBytes, count: slots * slotBytes)
        }

        /// Returns `slots` slots to the producer.
        @_noLocks
        public func release(_ slots: Int) {
            let read = indices.pointee.read.load(ordering: .relaxed)
            // Release: our reads of those slots complete before the producer may reuse them.
            indices.pointee.read.store(read + slots, ordering: .releasing)
        }

        /// Copies one slot out into `slot`; false when the ring is empty.
        @_noLocks
        public func pop(into slot: UnsafeMutableRawPointer) -> Bool {
            guard filledSlots() > 0 else { return false }
            let read = indices.pointee.read.load(ordering: .relaxed)
            slot.copyMemory(from: storage + (read & mask) * slotBytes, byteCount: slotBytes)
            release(1)
            return true
        }

        /// Discards everything filled now (a flush), returning how many slots it dropped.
        @_noLocks
        public func discardAll() -> Int {
            let filled = filledSlots()
            release(filled)
            return filled
        }

        // Reading ahead of the release point. A consumer that must be able to go
        // back (the real-time writer keeps what the device has not yet played, so that
        // after dropping the device's queue it can write again from the frame the
        // listener is hearing) reads at its own cursor, an absolute slot index
        // between the read index and the written index, and releases slots later.

        /// The read index: every slot before it is released. Only the consumer moves it.
        @_noLocks
        public func readIndex() -> Int { indices.pointee.read.load(ordering: .relaxed) }

        /// Filled slots from absolute index `cursor` (read index <= cursor <= written).
        @_noLocks
        public func filledSlots(from cursor: Int) -> Int {
            // Acquire: as in `filledSlots()`, the contents up to the producer's index are visible.
            indices.pointee.written.load(ordering: .acquiring) - cursor
        }

        /// The largest contiguous filled region starting at absolute index `cursor`,
        /// at most `maxSlots`.
        @_noLocks
        public func readableRegion(from cursor: Int, maxSlots: Int) -> UnsafeRawBufferPointer {
            let filled = filledSlots(from: cursor)
            let start = cursor & mask
            let slots = max(0, min(min(filled, mask + 1 - start), maxSlots))
            return UnsafeRawBufferPointer(start: storage + start * slotBytes, count: slots * slotBytes)
        }

        /// Releases every slot before absolute index `index` (no-op if already released).
        @_noLocks
        public func release(upTo index: Int) {
            let read = indices.pointee.read.load(ordering: .relaxed)
            // Release: as in `release(_:)`, our reads finish before the producer reuses the slots.
            if index > read { indices.pointee.read.store(index, ordering: .releasing) }
        }
    }
}
