/// A complete theme: a style for every `ThemeElement`.
///
/// A theme file need not set every element; the ones it leaves out keep the
/// built-in default's style (`Theme.standard`), so a small user theme that
/// only changes the banner is valid.
public struct Theme: Sendable, Equatable {
    public let name: String
    private let styles: [ThemeElement: ThemeStyle]

    /// `base` with the given elements replaced.
    public init(name: String, base: Theme = .standard, overriding overrides: [ThemeElement: ThemeStyle]) {
        self.name = name
        self.styles = base.styles.merging(overrides) { _, override in override }
    }

    private init(name: String, complete styles: [ThemeElement: ThemeStyle]) {
        precondition(ThemeElement.allCases.allSatisfy { styles[$0] != nil }, "the built-in theme must style every element")
        self.name = name
        self.styles = styles
    }

    public subscript(element: ThemeElement) -> ThemeStyle {
        // Every initialiser starts from a complete table, so the lookup cannot miss.
        styles[element]!
    }

    /// The fewest colours a terminal needs to show this theme as written
    /// (8, 16 or 256); with fewer, `rendering(for:)` maps colours down.
    public var colorsNeeded: ColorDepth {
        ThemeElement.allCases.reduce(ColorDepth.colors8) { needed, element in
            let style = self[element]
            return max(needed, style.foreground.depthNeeded, style.background.depthNeeded)
        }
    }

    /// The styles to draw with on a terminal of the given depth.
    public func rendering(for depth: ColorDepth) -> ThemeRendering {
        ThemeRendering(theme: self, depth: depth)
    }

    /// The built-in dark theme, used when no theme is chosen and whenever a
    /// theme file has errors. `themes/default.theme` spells out the same
    /// styles (a test keeps the two equal) so users can copy it.
    public static let standard = Theme(name: "default", complete: [
        .titleBar: ThemeStyle(.index(0), .index(6), .bold),
        .statusLine: ThemeStyle(.index(7), .index(4)),
        .commandLine: ThemeStyle(.terminalDefault, .terminalDefault),
        .paneBorder: ThemeStyle(.index(4), .terminalDefault),
        .paneTitleActive: ThemeStyle(.index(15), .index(4), .bold),
        .paneTitleInactive: ThemeStyle(.index(7), .terminalDefault),
        .listRow: ThemeStyle(.terminalDefault, .terminalDefault),
        .directoryRow: ThemeStyle(.index(12), .terminalDefault, .bold),
        .selectedRowFocused: ThemeStyle(.index(0), .index(6)),
        .selectedRowUnfocused: ThemeStyle(.terminalDefault, .index(8)),
        .playingRow: ThemeStyle(.index(3), .terminalDefault, .bold),
        .playingRowSelected: ThemeStyle(.index(11), .index(4), .bold),
        .progressFilled: ThemeStyle(.index(0), .index(2)),
        .progressEmpty: ThemeStyle(.index(7), .index(8)),
        .banner: ThemeStyle(.index(15), .index(1), .bold),
        .bannerCountdown: ThemeStyle(.index(11), .index(1), .bold),
        .errorText: ThemeStyle(.index(9), .terminalDefault, .bold),
        .logBegan: ThemeStyle(.index(9), .terminalDefault),
        .logEnded: ThemeStyle(.index(10), .terminalDefault),
        .logAction: ThemeStyle(.index(6), .terminalDefault),
        .alarmEnabled: ThemeStyle(.index(10), .terminalDefault),
        .alarmDisabled: ThemeStyle(.index(8), .terminalDefault),
        .helpHeading: ThemeStyle(.index(15), .terminalDefault, [.bold, .underline]),
        .helpKey: ThemeStyle(.index(11), .terminalDefault),
        .helpText: ThemeStyle(.terminalDefault, .terminalDefault),
        .secondaryText: ThemeStyle(.index(8), .terminalDefault),
    ])
}
