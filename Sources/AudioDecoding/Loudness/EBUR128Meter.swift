import CEbur128

/// Why a loudness measurement failed, as one sentence naming the file.
public struct LoudnessError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let detail: String

    public init(path: String, detail: String) {
        self.path = path
        self.detail = detail
    }

    public var description: String { "\(path): \(detail)" }
}

/// libebur128's state for one stream: integrated loudness (gated, EBU R 128 /
/// ITU-R BS.1770), sample peak and true peak (4x oversampled). The one file
/// that imports `CEbur128`. libebur128 has no message function: its error codes
/// are named here in its header's words.
final class EBUR128Meter {
    let state: UnsafeMutablePointer<ebur128_state>
    let channels: Int
    let path: String

    init(channels: Int, rate: Int, path: String) throws(LoudnessError) {
        let mode = Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue | EBUR128_MODE_SAMPLE_PEAK.rawValue)
        guard let state = ebur128_init(UInt32(channels), UInt(rate), mode) else {
            throw LoudnessError(path: path, detail: "libebur128 could not start a measurement at \(rate) Hz, \(channels) channels")
        }
        self.state = state
        self.channels = channels
        self.path = path
    }

    deinit {
        var pointer: UnsafeMutablePointer<ebur128_state>? = state
        ebur128_destroy(&pointer)
    }

    /// Interleaved signed 16-bit frames.
    func add(_ samples: UnsafePointer<Int16>, frames: Int) throws(LoudnessError) {
        try check(ebur128_add_frames_short(state, samples, frames), "add frames")
    }

    /// LUFS; -infinity for silence (below the absolute gate).
    func integratedLoudness() throws(LoudnessError) -> Double {
        var value = 0.0
        try check(ebur128_loudness_global(state, &value), "compute the integrated loudness")
        return value
    }

    /// The loudness of several streams measured as one (an album), LUFS.
    static func integratedLoudness(of meters: [EBUR128Meter]) throws(LoudnessError) -> Double {
        var states: [UnsafeMutablePointer<ebur128_state>?] = meters.map(\.state)
        var value = 0.0
        let result = states.withUnsafeMutableBufferPointer { ebur128_loudness_global_multiple($0.baseAddress, $0.count, &value) }
        if let first = meters.first { try first.check(result, "compute the album's loudness") }
        return value
    }

    /// The largest over the channels, linear (1.0 full scale).
    func samplePeak() throws(LoudnessError) -> Double {
        try peak(ebur128_sample_peak, "sample peak")
    }

    func truePeak() throws(LoudnessError) -> Double {
        try peak(ebur128_true_peak, "true peak")
    }

    private func peak(_ call: (UnsafeMutablePointer<ebur128_state>?, UInt32, UnsafeMutablePointer<Double>?) -> Int32,
                      _ what: String) throws(LoudnessError) -> Double {
        var largest = 0.0
        for channel in 0..<channels {
            var value = 0.0
            try check(call(state, UInt32(channel), &value), "compute the \(what)")
            largest = max(largest, value)
        }
        return largest
    }

    private func check(_ result: Int32, _ action: String) throws(LoudnessError) {
        guard result != Int32(EBUR128_SUCCESS.rawValue) else { return }
        let reason = switch UInt32(result) {
        case EBUR128_ERROR_NOMEM.rawValue: "out of memory"
        case EBUR128_ERROR_INVALID_MODE.rawValue: "invalid mode"
        case EBUR128_ERROR_INVALID_CHANNEL_INDEX.rawValue: "invalid channel index"
        case EBUR128_ERROR_NO_CHANGE.rawValue: "no change"
        default: "error \(result)"
        }
        throw LoudnessError(path: path, detail: "libebur128 could not \(action): \(reason)")
    }
}
