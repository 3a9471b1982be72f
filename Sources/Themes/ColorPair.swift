/// A foreground/background combination, as ncurses `init_pair` takes it.
public struct ColorPair: Hashable, Sendable {
    public let foreground: ThemeColor
    public let background: ThemeColor

    public init(foreground: ThemeColor, background: ThemeColor) {
        self.foreground = foreground
        self.background = background
    }
}
