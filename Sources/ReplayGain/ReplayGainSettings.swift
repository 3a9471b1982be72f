import BookFormat

/// The listener's ReplayGain choice and the gain it gives a file.
public struct ReplayGainSettings: Equatable, Sendable {
    public var mode: ReplayGainMode
    /// Added to every file's gain (ReplayGain's reference is quieter than most
    /// mastered music; a few dB of preamp is the usual taste).
    public var preampDecibels: Double
    /// Caps the gain so the file's peak stays at or under full scale.
    public var preventsClipping: Bool

    public init(mode: ReplayGainMode = .off, preampDecibels: Double = 0, preventsClipping: Bool = true) {
        self.mode = mode
        self.preampDecibels = preampDecibels
        self.preventsClipping = preventsClipping
    }

    /// The preamp's bounds: enough for any taste, far from what makes gains overflow.
    public static let preampRange: ClosedRange<Double> = -20...20

    /// The linear gain for a file with `info`. Album mode falls back to the
    /// track's values when the file has no album gain (and the reverse), as
    /// foobar2000 and mpv do; a file with no values at all plays as decoded
    /// (no preamp: the preamp corrects ReplayGain's reference, which that file
    /// was never brought to).
    public func linearGain(for info: ReplayGainInfo) -> Double {
        let chosen: (gain: Double?, peak: Double?)
        switch mode {
        case .off: return 1
        case .track: chosen = info.trackGain != nil ? (info.trackGain, info.trackPeak) : (info.albumGain, info.albumPeak)
        case .album: chosen = info.albumGain != nil ? (info.albumGain, info.albumPeak) : (info.trackGain, info.trackPeak)
        }
        guard let gain = chosen.gain else { return 1 }
        var linear = Decibels.linear(gain + preampDecibels)
        if preventsClipping, let peak = chosen.peak, peak > 0 { linear = min(linear, 1 / peak) }
        return linear
    }
}
