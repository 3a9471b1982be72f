/// How hard pauses in speech are shortened ("smart speed"): off, or the
/// longest pause kept. A pause longer than that keeps its first and last
/// halves of it (the word before it dies away, the breath before the next
/// word starts) and loses its middle; a shorter pause is untouched.
public enum TrimStrength: String, CaseIterable, Equatable, Sendable, CustomStringConvertible {
    case off, gentle, medium, strong

    /// The longest pause kept, in milliseconds; nil when off. Every kept
    /// length is over 0.3 s, the pauses inside a sentence (commas, breaths)
    /// that timing research on read speech puts at 0.1-0.3 s, so those are
    /// never touched; sentence and paragraph pauses (0.5-3 s) are.
    public var keptPauseMilliseconds: Int? {
        switch self {
        case .off: nil
        case .gentle: 600
        case .medium: 450
        case .strong: 350
        }
    }

    public var isOn: Bool { self != .off }

    /// What `on` means: the middle strength.
    public static let standard = TrimStrength.medium

    /// "off", "gentle", "medium", "strong", or "on" (medium); nil for anything else.
    public init?(parsing text: String) {
        let word = text.lowercased()
        if word == "on" { self = .standard; return }
        guard let strength = TrimStrength(rawValue: word) else { return nil }
        self = strength
    }

    /// The one wording of what the setting accepts, for every refusal.
    public static let accepts = "off, on, gentle, medium or strong"

    public var description: String { rawValue }
}
