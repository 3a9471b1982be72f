/// How one screen element is drawn: foreground, background and attributes.
public struct ThemeStyle: Hashable, Sendable, CustomStringConvertible {
    public var foreground: ThemeColor
    public var background: ThemeColor
    public var attributes: TextAttributes

    public init(_ foreground: ThemeColor, _ background: ThemeColor, _ attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The right-hand side of a theme-file line: `fg bg [attrs]`.
    public var description: String {
        let colours = "\(foreground) \(background)"
        return attributes.isEmpty ? colours : colours + " " + attributes.description
    }
}
