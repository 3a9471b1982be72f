/// Live voice levelling ("voice boost"): off, or the loudness voices are
/// brought to, in LUFS (EBU R 128 short-term loudness), whole numbers from
/// -24 to -12.
public struct VoiceBoost: Hashable, Sendable, CustomStringConvertible {
    /// The target in LUFS; nil when off.
    public let target: Int?

    public static let off = VoiceBoost(uncheckedTarget: nil)
    /// What `on` means: -18 LUFS, loud enough over a bus or a kitchen tap
    /// (AES TD1004's range for streamed speech is -16 to -20) with room for
    /// the -1 dBTP limit above a voice's 12-15 dB crest.
    public static let standard = VoiceBoost(uncheckedTarget: -18)
    public static let range = -24 ... -12

    private init(uncheckedTarget: Int?) { target = uncheckedTarget }

    /// Nil unless `target` is a whole number from -24 to -12.
    public init?(target: Int) {
        guard Self.range.contains(target) else { return nil }
        self.target = target
    }

    /// "off", "on", "-18", "-18LUFS" or "-18 LUFS".
    public init?(parsing text: String) {
        var word = text.lowercased()
        if word == "off" { self = .off; return }
        if word == "on" { self = .standard; return }
        if word.hasSuffix("lufs") { word = String(word.dropLast(4)) }
        while word.hasSuffix(" ") { word = String(word.dropLast()) }
        // Bounded before the conversion: `Int` of a long string of digits is nil, not a trap.
        guard word.count <= 4, let value = Int(word) else { return nil }
        self.init(target: value)
    }

    public var isOn: Bool { target != nil }

    /// The one wording of what the setting accepts, for every refusal.
    public static let accepts = "off, on, or a loudness from -24 to -12 (LUFS)"

    /// "off" or "-18 LUFS".
    public var description: String { target.map { "\($0) LUFS" } ?? "off" }
    /// "off" or "-18": what a state file or the config keeps.
    public var word: String { target.map { "\($0)" } ?? "off" }
}
