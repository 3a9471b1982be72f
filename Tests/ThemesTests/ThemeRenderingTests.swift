import Testing
@testable import Themes

/// How a theme is drawn on terminals with 256, 16, 8 or no colours.
struct ThemeRenderingTests {
    private func theme(_ text: String) throws -> Theme {
        let load = ThemeParser.parse(text, name: "t", path: "t.theme")
        try #require(load.problems == [])
        return load.theme
    }

    @Test("colorsNeeded is the largest palette any element uses")
    func colorsNeededIsLargestPaletteUsed() throws {
        #expect(try theme("banner = red blue").colorsNeeded == .colors16) // the rest is the 16-colour default
        let eightOnly = ThemeElement.allCases.map { "\($0.rawValue) = default black" }.joined(separator: "\n")
        #expect(try theme(eightOnly).colorsNeeded == .colors8)
        #expect(try theme(eightOnly.replacingFirst("black", with: "bright-black")).colorsNeeded == .colors16)
        #expect(try theme(eightOnly.replacingFirst("black", with: "17")).colorsNeeded == .colors256)
        #expect(Theme.standard.colorsNeeded == .colors16)
    }

    @Test("monochrome drops every colour and draws elements with attributes only")
    func monochromeUsesAttributesOnly() throws {
        let rendering = try theme("banner = red blue underline\nlist-row = 196 17 reverse").rendering(for: .monochrome)
        for element in ThemeElement.allCases {
            #expect(rendering[element] == ThemeStyle(.terminalDefault, .terminalDefault, element.monochromeAttributes))
        }
        #expect(rendering[.selectedRowFocused].attributes == .reverse)
        #expect(rendering[.banner].attributes == [.reverse, .bold])
        #expect(rendering[.listRow].attributes == [])
        #expect(rendering.colorPairs == [])
        #expect(ThemeElement.allCases.allSatisfy { rendering.pairNumber(for: $0) == 0 })
    }

    @Test("in monochrome the elements a user must tell apart look different")
    func monochromeKeepsDistinctionsThatMatter() {
        let rendering = Theme.standard.rendering(for: .monochrome)
        let mustDiffer: [(ThemeElement, ThemeElement)] = [
            (.listRow, .selectedRowFocused), (.listRow, .selectedRowUnfocused), (.listRow, .playingRow),
            (.selectedRowFocused, .selectedRowUnfocused), (.playingRow, .playingRowSelected),
            (.paneTitleActive, .paneTitleInactive), (.banner, .statusLine), (.banner, .listRow),
            (.progressFilled, .progressEmpty), (.alarmEnabled, .alarmDisabled), (.helpKey, .helpText),
        ]
        for (first, second) in mustDiffer {
            #expect(rendering[first] != rendering[second], "\(first.rawValue) and \(second.rawValue)")
        }
    }

    @Test("monochrome uses only attributes a vt100 has")
    func monochromeUsesVT100Attributes() {
        let vt100: TextAttributes = [.bold, .underline, .reverse]
        for element in ThemeElement.allCases {
            #expect(vt100.isSuperset(of: element.monochromeAttributes), "\(element.rawValue)")
        }
    }

    @Test("a 256-colour theme on 16 colours uses the nearest colours, on 8 their base colours with bold for bright text")
    func colourThemeMapsDown() throws {
        let theme = try theme("banner = 196 19 underline\nlist-row = 46 default")
        #expect(theme.rendering(for: .colors256)[.banner] == ThemeStyle(.index(196), .index(19), .underline))
        #expect(theme.rendering(for: .colors16)[.banner] == ThemeStyle(.index(9), .index(4), .underline))
        #expect(theme.rendering(for: .colors8)[.banner] == ThemeStyle(.index(1), .index(4), [.underline, .bold]))
        #expect(theme.rendering(for: .colors8)[.listRow] == ThemeStyle(.index(2), .terminalDefault, .bold))
    }

    @Test("a bright background on 8 colours becomes its base colour without adding bold")
    func brightBackgroundLosesBrightness() throws {
        let rendering = try theme("list-row = black bright-cyan").rendering(for: .colors8)
        #expect(rendering[.listRow] == ThemeStyle(.index(0), .index(6)))
    }

    @Test("when mapping makes text the colour of its background, the text becomes black or white for contrast")
    func collidingColoursGetContrastingForeground() throws {
        let theme = try theme("banner = bright-white white\nlist-row = bright-red red\nlog-began = red red")
        let eight = theme.rendering(for: .colors8)
        #expect(eight[.banner].foreground == .index(0))  // white background is light: black text
        #expect(eight[.listRow].foreground == .index(7)) // red background is dark: white text
        #expect(eight[.logBegan].foreground == .index(1)) // the theme asked for red on red: kept
        let sixteen = try self.theme("banner = 231 15").rendering(for: .colors16)
        #expect(sixteen[.banner] == ThemeStyle(.index(0), .index(15)))
    }

    @Test("colour pairs are distinct, numbered from 1, and every element's number names its own colours")
    func colourPairsAreNumberedConsistently() {
        for depth in [ColorDepth.colors8, .colors16, .colors256] {
            let rendering = Theme.standard.rendering(for: depth)
            #expect(Set(rendering.colorPairs).count == rendering.colorPairs.count)
            #expect(!rendering.colorPairs.contains(ColorPair(foreground: .terminalDefault, background: .terminalDefault)))
            for element in ThemeElement.allCases {
                let style = rendering[element]
                let number = rendering.pairNumber(for: element)
                if style.foreground == .terminalDefault, style.background == .terminalDefault {
                    #expect(number == 0)
                } else {
                    let pair = rendering.colorPairs[number - 1]
                    #expect(pair == ColorPair(foreground: style.foreground, background: style.background))
                }
            }
        }
    }

    @Test("ncurses colour numbers: -1 for the terminal default, the index otherwise")
    func terminalNumbers() {
        #expect(ThemeColor.terminalDefault.terminalNumber == -1)
        #expect(ThemeColor.index(0).terminalNumber == 0)
        #expect(ThemeColor.index(214).terminalNumber == 214)
    }
}

private extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        var copy = self
        if let range = copy.firstRange(of: target) { copy.replaceSubrange(range, with: replacement) }
        return copy
    }
}
