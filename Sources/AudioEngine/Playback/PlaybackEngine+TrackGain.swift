import AudioDecoding

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

    func publishTrackGain(at index: Int, gain: Float) -> Bool {
        guard let control else { return true }
        return control.pointee.requestTrackGain(gain, fromRingIndex: index)
    }

    /// The gain the writer applies now (tests and reports).
    public var appliedTrackGain: Float {
        guard let control else { return 1 }
        return Float(bitPattern: control.pointee.trackGainBits.load(ordering: .relaxed))
    }
}

extension TrackFeeder {
    /// A file just opened for decoding: its gain.
    func didOpen(_ decoder: any Decoder, path: String) -> Float {
        trackGain?(path, decoder) ?? 1
    }

    /// The file being decoded gets its gain again (the gain function changed).
    func refreshTrackGain() {
        guard let decoder = currentDecoder else { return }
        decodingGain = trackGain?(decoder.path, decoder) ?? 1
    }
}
