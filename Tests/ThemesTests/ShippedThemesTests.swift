import FoundationEssentials
import Testing
@testable import Themes

/// Acceptance 5, first half: every theme in the repository's `themes/`
/// folder loads without a problem.
struct ShippedThemesTests {
    static var themesDirectory: String {
        // #filePath is <repo>/Tests/ThemesTests/ShippedThemesTests.swift.
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/") + "/themes"
    }

    static var shippedNames: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: themesDirectory)) ?? []
        return files.filter { $0.hasSuffix(".theme") }.map { String($0.dropLast(".theme".count)) }.sorted()
    }

    private let catalog = ThemeCatalog(directories: [Self.themesDirectory])

    @Test("the four themes the issue asks for are shipped")
    func requiredThemesAreShipped() {
        for name in ["default", "light", "high-contrast", "256"] {
            #expect(Self.shippedNames.contains(name), "themes/\(name).theme")
        }
        #expect(catalog.names() == ["default"] + Self.shippedNames.filter { $0 != "default" })
    }

    @Test("every shipped theme parses with zero problems and sets every element", arguments: shippedNames)
    func shippedThemeParsesClean(name: String) throws {
        let path = Self.themesDirectory + "/" + name + ".theme"
        let load = try catalog.load(name)
        #expect(load.problems.map(\.description) == [])
        #expect(load.theme.name == name)
        let text = try #require(LocalThemeFiles().text(ofFile: path))
        for element in ThemeElement.allCases {
            #expect(text.contains("\n\(element.rawValue) "), "\(name).theme does not set \(element.rawValue)")
        }
    }

    @Test("default.theme spells out exactly the built-in default theme")
    func defaultFileMatchesBuiltIn() throws {
        let load = try catalog.load("default")
        try #require(load.path.hasSuffix("themes/default.theme"))
        for element in ThemeElement.allCases {
            #expect(load.theme[element] == Theme.standard[element], "\(element.rawValue)")
        }
    }

    @Test("shipped themes need the colours their names promise", arguments: [("default", ColorDepth.colors16), ("light", .colors8), ("high-contrast", .colors16), ("256", .colors256)])
    func shippedThemeColourNeeds(name: String, depth: ColorDepth) throws {
        #expect(try catalog.load(name).theme.colorsNeeded == depth)
    }

    @Test("the alarm banner differs from the status line and list rows in every shipped theme at every depth", arguments: shippedNames)
    func bannerStandsOut(name: String) throws {
        let theme = try catalog.load(name).theme
        for depth in ColorDepth.allCases {
            let rendering = theme.rendering(for: depth)
            #expect(rendering[.banner] != rendering[.statusLine], "\(name) at \(depth)")
            #expect(rendering[.banner] != rendering[.listRow], "\(name) at \(depth)")
            #expect(rendering[.banner].foreground != rendering[.banner].background || depth == .monochrome, "\(name) at \(depth)")
        }
    }
}
