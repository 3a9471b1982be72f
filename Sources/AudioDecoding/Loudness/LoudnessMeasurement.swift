/// A file's (or an album's) loudness by EBU R 128, and the ReplayGain 2.0
/// values it gives: the gain to -18 LUFS and the peak.
public struct LoudnessMeasurement: Equatable, Sendable {
    public var path: String
    /// LUFS; -infinity when the file is silent (below the -70 LUFS gate).
    public var integratedLoudness: Double
    /// Linear (1.0 full scale): the largest sample, and the 4x oversampled
    /// true peak (what a converter may reach between samples).
    public var samplePeak: Double
    public var truePeak: Double

    /// ReplayGain 2.0's reference: EBU R 128 at -18 LUFS (the older 89 dB SPL
    /// level, within a dB for music), so values mix with those taggers write.
    public static let referenceLoudness = -18.0

    /// dB to the reference; nil for silence (no gain makes it -18 LUFS).
    public var gain: Double? {
        integratedLoudness.isFinite ? Self.referenceLoudness - integratedLoudness : nil
    }
}

/// Measures through the same decoders playback uses, so every format the
/// player plays can be measured, and never writes into the files.
public enum Loudness {
    /// One file.
    public static func measure(path: String) throws(LoudnessError) -> LoudnessMeasurement {
        let (measurement, _) = try meter(path: path)
        return measurement
    }

    /// Each file, and those that could be measured as one album (nil when
    /// none could), with the files that could not: one decode per file.
    public static func measureAlbum(paths: [String])
        -> (tracks: [LoudnessMeasurement], album: LoudnessMeasurement?, failures: [LoudnessError]) {
        var tracks: [LoudnessMeasurement] = []
        var meters: [EBUR128Meter] = []
        var failures: [LoudnessError] = []
        for path in paths {
            do {
                let (measurement, meter) = try meter(path: path)
                tracks.append(measurement)
                meters.append(meter)
            } catch {
                failures.append(error)
            }
        }
        guard !meters.isEmpty else { return (tracks, nil, failures) }
        let first = tracks[0].path
        let folder = first.lastIndex(of: "/").map { String(first[..<$0]) } ?? "."
        do {
            let album = LoudnessMeasurement(path: folder, integratedLoudness: try EBUR128Meter.integratedLoudness(of: meters),
                                            samplePeak: tracks.map(\.samplePeak).max() ?? 0,
                                            truePeak: tracks.map(\.truePeak).max() ?? 0)
            return (tracks, album, failures)
        } catch {
            return (tracks, nil, failures + [error])
        }
    }

    /// Decodes the whole file at its own rate and channel count (no
    /// conversion: the measurement is of the file, not of a device).
    static func meter(path: String) throws(LoudnessError) -> (LoudnessMeasurement, EBUR128Meter) {
        let decoder: any Decoder
        do { decoder = try Decoders.open(path: path) } catch { throw LoudnessError(path: path, detail: error.detail) }
        defer { decoder.close() }
        let format = decoder.format
        let meter = try EBUR128Meter(channels: format.channels, rate: format.rate, path: path)
        let frames = 16_384
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: frames * format.bytesPerFrame, alignment: 16)
        defer { buffer.deallocate() }
        reading: while true {
            let result: DecoderReadResult
            do { result = try decoder.read(into: buffer) } catch { throw LoudnessError(path: path, detail: error.detail) }
            switch result {
            case .frames(let count) where count > 0:
                try meter.add(buffer.baseAddress!.assumingMemoryBound(to: Int16.self), frames: count)
            case .frames, .end, .notYet:
                break reading
            }
        }
        let measurement = LoudnessMeasurement(path: path, integratedLoudness: try meter.integratedLoudness(),
                                              samplePeak: try meter.samplePeak(), truePeak: try meter.truePeak())
        return (measurement, meter)
    }
}
