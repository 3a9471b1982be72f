/// A file's ReplayGain values as its tags store them: gains in dB (to the
/// ReplayGain reference level), peaks as linear sample amplitudes (1.0 full
/// scale). Any of them may be missing.
public struct ReplayGainInfo: Equatable, Sendable {
    public var trackGain: Double?
    public var trackPeak: Double?
    public var albumGain: Double?
    public var albumPeak: Double?

    public init(trackGain: Double? = nil, trackPeak: Double? = nil, albumGain: Double? = nil, albumPeak: Double? = nil) {
        self.trackGain = trackGain
        self.trackPeak = trackPeak
        self.albumGain = albumGain
        self.albumPeak = albumPeak
    }

    public var isEmpty: Bool { trackGain == nil && albumGain == nil }

    /// The values from `NAME = VALUE` fields, named as the tag formats agree
    /// (`REPLAYGAIN_TRACK_GAIN`, any case: Vorbis comments, ID3 TXXX
    /// descriptions, MP4 freeform atoms); other names are ignored.
    public init(fields: [(name: String, value: String)]) {
        self.init()
        for (name, value) in fields {
            switch name.uppercased() {
            case "REPLAYGAIN_TRACK_GAIN": trackGain = Self.decibels(value)
            case "REPLAYGAIN_TRACK_PEAK": trackPeak = Self.peak(value)
            case "REPLAYGAIN_ALBUM_GAIN": albumGain = Self.decibels(value)
            case "REPLAYGAIN_ALBUM_PEAK": albumPeak = Self.peak(value)
            default: continue
            }
        }
    }

    /// Each value this one lacks, taken from `other` (tags in one place win over another's).
    public func filling(from other: ReplayGainInfo) -> ReplayGainInfo {
        ReplayGainInfo(trackGain: trackGain ?? other.trackGain, trackPeak: trackPeak ?? other.trackPeak,
                       albumGain: albumGain ?? other.albumGain, albumPeak: albumPeak ?? other.albumPeak)
    }

    /// "-6.54 dB", "+3 dB", "2.1dB": the number before the unit. Gains beyond
    /// ±60 dB are not ReplayGain values any tool writes (a damaged tag).
    public static func decibels(_ text: String) -> Double? {
        var number = Substring(text).drop { $0 == " " }
        if number.hasPrefix("+") { number = number.dropFirst() }
        let digits = number.prefix { $0.isNumber || $0 == "." || $0 == "-" || $0 == "e" || $0 == "E" }
        guard let value = Double(digits), value.isFinite, abs(value) <= 60 else { return nil }
        return value
    }

    /// A linear peak: positive and finite (some tools write more than 1 for clipped masters).
    public static func peak(_ text: String) -> Double? {
        let trimmed = Substring(text).drop { $0 == " " }.prefix { $0 != " " }
        guard let value = Double(trimmed), value.isFinite, value > 0, value < 100 else { return nil }
        return value
    }
}
