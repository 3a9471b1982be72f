/// The longest text a label or note may be. A label is shown on one line of
/// the screen and in `alarm list`; a note beside a bookmark. Beyond these
/// lengths nothing more can be seen, and each character still costs every
/// save and every redraw.
public struct TextLimit: Sendable, Equatable {
    public let maximumCharacters: Int
    /// "label", "note".
    public let name: String

    public init(maximumCharacters: Int, name: String) {
        self.maximumCharacters = maximumCharacters
        self.name = name
    }

    public static let label = TextLimit(maximumCharacters: 200, name: "label")
    public static let note = TextLimit(maximumCharacters: 1000, name: "note")

    /// Nil when `text` fits; else the one sentence that says why not.
    public func problem(_ text: String) -> String? {
        let count = text.count
        guard count > maximumCharacters else { return nil }
        return "the \(name) is \(count) characters long; at most \(maximumCharacters)"
    }
}
