extension PlaybackEngine {
    /// Gives each file its own gain (ReplayGain), applied by the writer from
    /// the file's first frame in the ring: at a gapless join the gain changes
    /// on the exact frame where the next file begins, in every format, since
    /// it is the mixer's gain stage and not one decoder that applies it. The
    /// file being decoded now gets its gain from its next frames on.
    public func setTrackGain(_ gain: @escaping (_ path: String, _ decoder: any Decoder) -> Float) {
        feeder.trackGain = gain
        feeder.publishTrackGain = { [weak self] index, gain in self?.publishTrackGain(at: index, gain: gain) ?? true }
        feeder.refreshTrackGain()
    }

    /// One mark for the writer: `gain` from media-ring index `index` on. False
    /// while every slot holds a mark the writer has not reached (one kept spare
    /// for a rewind): decoding waits for the writer, as it does for ring space.
    func publishTrackGain(at index: Int, gain: Float) -> Bool {
        guard let control else { return true }
        // Only this thread writes the count: relaxed.
        let written = control.pointee.trackGainMarksWritten.load(ordering: .relaxed)
        // Acquire: pairs with the writer's release in `publishTrackGain()`: it has read the slot.
        let applied = control.pointee.trackGainMarksApplied.load(ordering: .acquiring)
        guard written - applied < WriterControl.trackGainSlots - 1 else { return false }
        let packed = UInt64(UInt32(truncatingIfNeeded: index)) << 32 | UInt64(gain.bitPattern)
        (control.pointee.trackGainMarks + written % WriterControl.trackGainSlots).pointee.store(packed, ordering: .relaxed)
        // Release: publishes the slot to the writer's acquire load of the count.
        control.pointee.trackGainMarksWritten.store(written + 1, ordering: .releasing)
        return true
    }

    /// The gain the writer applies now (tests and reports).
    public var appliedTrackGain: Float {
        guard let control else { return 1 }
        return Float(bitPattern: control.pointee.trackGainBits.load(ordering: .relaxed))
    }
}

extension TrackFeeder {
    /// The file being decoded gets its gain again (the gain function changed).
    func refreshTrackGain() {
        guard let decoder = currentDecoder else { return }
        decodingGain = trackGain?(decoder.path, decoder) ?? 1
    }
}
