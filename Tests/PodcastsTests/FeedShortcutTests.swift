import Testing
@testable import Podcasts

/// The shortcuts that make a 10 MB feed cheap to read give what the general rules give: each is held to its step-by-step
/// counterpart over many texts, real forms and near misses alike.
@Suite struct FeedShortcutTests {
    /// A seeded generator, so that a failure names texts that come back.
    struct Seeded {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        mutating func pick<T>(_ choices: [T]) -> T { choices[next(choices.count)] }
    }

    @Test func whiteSpaceIsUnicodesWhiteSpace() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(String.isFeedWhitespace(value) == scalar.properties.isWhitespace, "U+\(String(value, radix: 16))")
        }
    }

    /// podcastparser's squashes as they were written over scalars and the property tables.
    static func squashed(_ text: String, keepingLines: Bool) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        var result = ""
        var pendingSpace = false
        for scalar in scalars[first...last] {
            if scalar.properties.isWhitespace && !(keepingLines && (scalar == "\n" || scalar == "\r")) {
                pendingSpace = true
            } else {
                if pendingSpace { result.unicodeScalars.append(" ") }
                pendingSpace = false
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    @Test func trimmingAndSquashingAreTheScalarRules() {
        var random = Seeded(state: 27)
        let pieces = ["a", "Épisode", " ", "  ", "\t", "\n", "\r\n", "\u{A0}", "\u{2003}", "\u{3000}", "\u{85}", "😀", "x y",
                      "\u{200B}", "\u{1680}", "é", "\u{301}"]
        for _ in 0..<5000 {
            let text = (0..<random.next(8)).map { _ in random.pick(pieces) }.joined()
            #expect(text.squashingWhitespace() == Self.squashed(text, keepingLines: false), "\(Array(text.unicodeScalars))")
            #expect(text.squashingWhitespaceKeepingLines() == Self.squashed(text, keepingLines: true), "\(Array(text.unicodeScalars))")
            let scalars = text.unicodeScalars
            let trimmed = scalars.firstIndex(where: { !$0.properties.isWhitespace }).map {
                String(scalars[$0...scalars.lastIndex(where: { !$0.properties.isWhitespace })!])
            } ?? ""
            #expect(text.trimmingFeedWhitespace() == trimmed, "\(Array(text.unicodeScalars))")
        }
    }

    @Test func commonDatesReadAsTheGeneralRule() {
        var random = Seeded(state: 28)
        var read = 0
        for _ in 0..<20000 {
            let day = random.pick(["", "Mon, ", "Tue,  ", "mon, ", "Mon ", "Mon,", "Xyz, ", "Monday, "])
            let date = random.pick(["1", "01", "31", "32", "0", "001", "7"])
            let month = random.pick(["Jan", "feb", "DEC", "Foo", "January", "Ja"])
            let year = random.pick(["2024", "24", "69", "68", "0024", "99999", "202", "1970"])
            let clock = random.pick(["10:00:00", "9:05", "23:59:60", "99:99:99", "1:2:3", "10:00:", "100:00:00", "10.00.00"])
            let zone = random.pick(["+0000", "-0500", "+0530", "GMT", "est", "PDT", "Z", "CEST", "CET", "+05:30", "-9999", "+00000",
                                    "", "GMT (UTC)", "+0100 "])
            let gap = random.pick([" ", "  ", "\t", " \n ", " \r\n", "\r "])
            let text = day + date + gap + month + " " + year + gap + clock + " " + zone
            if let shortcut = FeedDate.commonRFC822(text) {
                read += 1
                #expect(shortcut == FeedDate.rfc822(text), "\(text)")
            }
        }
        // The shortcut reads the common forms, or it would be no shortcut.
        #expect(read > 500)
        #expect(FeedDate.commonRFC822("Mon, 01 Jan 2024 10:00:00 +0000") == 1_704_103_200)
    }

    @Test func plainDurationsReadAsTheGeneralRule() {
        var random = Seeded(state: 29)
        let pieces = ["0", "1", "12", "123", "59", "999999999", "9999999999", ":", ".", "5", " ", "a", "+", "::"]
        var read = 0
        for _ in 0..<20000 {
            let text = (0..<random.next(7)).map { _ in random.pick(pieces) }.joined()
            guard let shortcut = EpisodeDuration.plainSeconds(text) else { continue }
            read += 1
            // The general rule, the shortcut set aside: the same text with a space after it (trimmed there, refused here).
            #expect(shortcut == EpisodeDuration.seconds(text + " "), "\(text)")
        }
        #expect(read > 1000)
    }

    @Test func urlsGivenBackAsTheyAreAreWhatTheGeneralRulesGive() {
        var random = Seeded(state: 30)
        let bases = ["https://example.com/feeds/f.xml", "http://example.com/", "https://example.com", "ftp://x.example/a/b",
                     "https://example.com/a/./b/", "https://example.com//x/"]
        let schemes = ["https:", "http:", "HTTP:", "ftp:", "urn:", "mailto:", "", "h t:"]
        let rests = ["//cdn.example.com/a.mp3", "//CDN.Example.com/a.mp3", "//cdn.example.com", "//cdn.example.com?x=1",
                     "//h/a.mp3?", "//h/a.mp3#", "//h/a#b", "//h/a?b=1&c=2", "uuid:1234", "media/ep.mp3", "../up/ep.mp3",
                     "./a", "a//b", "/abs/ep.m4a", "a/.hidden", "ep.mp3?x=1", "//h/é.mp3", "//hé/a", "//h/a b.mp3",
                     "//h/a\t.mp3", " //h/a", "//h/a ", "a:b/c", "?x=1", "a?", "a?b#c", "/x?y:z",
                     "a?b?c", "", "/", "..", "//h", "//H", "//h ", "//h?", "//h/", "//hé", "//h:80"]
        for _ in 0..<5000 {
            let base = FeedURL.Base(random.pick(bases))
            let reference = random.pick(schemes) + random.pick(rests)
            #expect(FeedURL.resolve(reference, against: base) == FeedURL.resolveInFull(reference, against: base),
                    "\(reference) against \(base.text)")
            #expect(FeedURL.normalized(reference) == FeedURL.normalizedInFull(reference), "\(reference)")
            let path = random.pick(["/feeds/f.xml", "/", "", "/a/./b", "/a//b/", "a/b", "/a/b/", "/a/b/c/f.xml", "/a/../b/f",
                                    "/f.xml", "/a/b/c/"])
            // Up to three `../` (or near misses) before a path: past the base's depth too, where the root goes.
            let ups = (0..<random.next(4)).map { _ in random.pick(["../", "../", "./", "..", "..//", ".../"]) }.joined()
            let relative = ups + random.pick(["x.mp3", "a/b.mp3", "../x", "./x", "a//b", "a/", ".x", "a/..", "é/x", "", "/x",
                                              "/abs/ep.m4a", "/a/./b", "/a//b", "/", "/a/", "/.x", "/..", "a/.b", "x/../y"])
            #expect(FeedURL.mergedPath(base: path, reference: relative) == FeedURL.mergedPathInFull(base: path, reference: relative),
                    "\(relative) under \(path)")
        }
        // The forms the shortcuts are for, worked out by hand.
        #expect(FeedURL.mergedPath(base: "/a/b/f.xml", reference: "../up/ep.mp3") == "/a/up/ep.mp3")
        #expect(FeedURL.mergedPath(base: "/f.xml", reference: "../up/ep.mp3") == "up/ep.mp3")
        #expect(FeedURL.mergedPath(base: "/a/f.xml", reference: "../../x") == "x")
        #expect(FeedURL.mergedPath(base: "/a/b/", reference: "/abs/ep.m4a") == "/abs/ep.m4a")
        #expect(FeedURL.isNormal("https://cdn.example.com/a.mp3?x=1"))
        #expect(FeedURL.isNormalSite("https://cdn.example.com") && FeedURL.normalized("https://cdn.example.com") == "https://cdn.example.com/")
        #expect(!FeedURL.isNormalSite("https://cdn.example.com "))
        #expect(FeedURL.plainScheme("https://cdn.example.com/a.mp3") == "https")
    }
}
