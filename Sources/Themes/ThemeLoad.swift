import InterludeCore

/// The outcome of reading one theme: the theme to use and what was wrong.
///
/// A theme with any problem is not used at all: `theme` is then the
/// built-in default, because half a theme (a light background from one
/// line, the dark default's text colours from the next) can be unreadable.
public struct ThemeLoad: Sendable, Equatable {
    /// The name that was asked for (the file's name without `.theme`).
    public let requestedName: String
    /// Where it came from; empty for the built-in default.
    public let path: String
    /// The theme to draw with.
    public let theme: Theme
    /// Every problem in the file, in line order.
    public let problems: [ConfigProblem]

    public init(requestedName: String, path: String, theme: Theme, problems: [ConfigProblem]) {
        self.requestedName = requestedName
        self.path = path
        self.theme = theme
        self.problems = problems
    }

    /// Whether the requested theme was rejected and the default is used instead.
    public var fellBackToDefault: Bool { !problems.isEmpty }
}
