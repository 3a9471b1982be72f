/// A theme as one particular terminal will draw it: every colour within the
/// terminal's depth, and the colour pairs to register, numbered.
///
/// On fewer colours than the theme needs, colours are mapped to the nearest
/// available one (`ColorReduction`). Two adjustments keep text readable:
/// - on 8 colours a bright foreground becomes its base colour plus bold,
///   which most terminals draw bright (cmus does the same);
/// - when mapping makes foreground and background equal although the theme
///   gave different colours, the foreground becomes black or white, whichever
///   contrasts with the background.
/// Monochrome drops colour and uses `ThemeElement.monochromeAttributes`.
public struct ThemeRendering: Sendable, Equatable {
    public let themeName: String
    public let depth: ColorDepth
    private let styles: [ThemeElement: ThemeStyle]
    /// Distinct pairs in element order, excluding default-on-default. Register
    /// pair `n` (1-based) as `colorPairs[n - 1]`; pair 0 is the terminal's own.
    public let colorPairs: [ColorPair]

    init(theme: Theme, depth: ColorDepth) {
        themeName = theme.name
        self.depth = depth
        var styles: [ThemeElement: ThemeStyle] = [:]
        var pairs: [ColorPair] = []
        for element in ThemeElement.allCases {
            let style = Self.style(theme[element], element: element, depth: depth)
            styles[element] = style
            let pair = ColorPair(foreground: style.foreground, background: style.background)
            if pair != ColorPair(foreground: .terminalDefault, background: .terminalDefault), !pairs.contains(pair) {
                pairs.append(pair)
            }
        }
        self.styles = styles
        colorPairs = pairs
    }

    public subscript(element: ThemeElement) -> ThemeStyle {
        // The initialiser fills every element.
        styles[element]!
    }

    /// The ncurses pair number for an element: 0 for default-on-default,
    /// otherwise the 1-based position of its pair in `colorPairs`.
    public func pairNumber(for element: ThemeElement) -> Int {
        let style = self[element]
        let pair = ColorPair(foreground: style.foreground, background: style.background)
        return colorPairs.firstIndex(of: pair).map { $0 + 1 } ?? 0
    }

    static func style(_ style: ThemeStyle, element: ThemeElement, depth: ColorDepth) -> ThemeStyle {
        if depth == .monochrome {
            return ThemeStyle(.terminalDefault, .terminalDefault, element.monochromeAttributes)
        }
        var result = ThemeStyle(ColorReduction.reduce(style.foreground, to: depth),
                                ColorReduction.reduce(style.background, to: depth),
                                style.attributes)
        if depth == .colors8, case .index(let original) = style.foreground, ColorReduction.nearest16(to: original) >= 8 {
            result.attributes.insert(.bold)
        }
        if result.foreground == result.background, style.foreground != style.background,
           case .index(let background) = result.background {
            result.foreground = .index(ColorReduction.isLight(background) ? 0 : 7)
        }
        return result
    }
}
