import InterludeCore
import Testing
@testable import Podcasts

/// Dates, durations and lengths read as podcastparser reads them (the
/// expected values are Python's `podcastparser.parse_pubdate`, `parse_time`
/// and `parse_length` on the same text).
@Suite struct FeedFieldTests {
    @Test(arguments: [
        ("Fri, 21 Nov 1997 09:55:06 -0600", Int64(880_127_706)),
        ("2003-12-13T00:00:00+02:00", 1_071_266_400),
        ("2003-12-13T18:30:02Z", 1_071_340_202),
        ("Mon, 02 May 1960 09:05:01 +0100", -305_049_299),
        ("21 Nov 1997 09:55 GMT", 880_106_100),
        ("Fri, 21 Nov 97 09:55:06 EST", 880_124_106),
        ("  Wed,  05 Jun 2024 10:11:12 +0530 \n", 1_717_562_472),
        ("Thu,05 Sep 2019 01:02:03 PDT", 1_567_670_523),
    ])
    func datesReadAsPodcastparser(text: String, expected: Int64) {
        #expect(FeedDate.parse(text.trimmingFeedWhitespace()) == expected)
    }

    @Test func whatIsNoDateIsNil() {
        for text in ["", "unknown", "32 Foo 2020 10:00:00", "Fri, 21 Nov 99999999999 09:55:06 +0000", "2020-13-01T00:00:00Z"] {
            #expect(FeedDate.parse(text) == nil, "\(text)")
        }
    }

    @Test(arguments: [("0", 0), ("128", 128), ("00:20", 20), ("01:00:00", 3600), (" 03:02:01", 10921), ("61:08", 3668),
                      ("25:3:30", 90210), ("61.08", 61), ("01:02:03.500", 3723), (" ", 0), ("1:2:3:4", 0), ("abc", 0)])
    func durationsReadAsPodcastparser(text: String, expected: Int) {
        #expect(EpisodeDuration.seconds(text) == expected)
    }

    @Test func lengthsReadAsPodcastparser() {
        #expect(FeedBuilder.length(nil) == -1)
        #expect(FeedBuilder.length("0") == -1)
        #expect(FeedBuilder.length("unknown") == -1)
        #expect(FeedBuilder.length(" 100 ") == 100)
        #expect(FeedBuilder.mimeType("audio") == "application/octet-stream")
        #expect(FeedBuilder.mimeType("audio/mpeg") == "audio/mpeg")
    }

    /// Python's integers have no bound; here what does not fit the range is none.
    @Test func numbersOutOfRangeAreNone() {
        #expect(EpisodeDuration.seconds("99999999999999999999") == 0)
        #expect(EpisodeDuration.seconds("999999999:59:59") == EpisodeDuration.longest)
        #expect(FeedBuilder.length("99999999999999999999999") == -1)
    }

    @Test func htmlIsTextAsRemoveHTMLTagsMakesIt() {
        #expect(HTMLText.isHTML("<h1>HELLO</h1>"))
        #expect(!HTMLText.isHTML("a < b < c"))
        #expect(HTMLText.text("<p>First <b>bold</b> &amp; <a href=\"x\">link</a></p><ul><li>one</li><li>two</li></ul>")
                == "First bold & link\n\n * one\n\n * two")
        #expect(HTMLText.text("caf&#233; &nbsp;x<br/>y") == "café \u{A0}x\ny")
    }

    /// The text is written into a String as long as the HTML: the forms that
    /// leave the most of themselves (`<li>` all its 4 bytes, `&zwnj;` 3 of
    /// 6, `&#9999;` 3 of 7), back to back, fit, and come out whole.
    @Test func htmlTextAtItsLongestFits() {
        #expect(HTMLText.text("x<li>x<li>x<li>x") == "x\n * x\n * x\n * x")
        #expect(HTMLText.text("<li>a<li >b") == "* a\n * b")
        #expect(HTMLText.text("a<p>b<p>c") == "a\n\nb\n\nc")
        #expect(HTMLText.text("&zwnj;&hellip;&#9999;&#99;&nbsp;") == "\u{200C}…\u{270F}c")
        #expect(HTMLText.text("  \n<br>  é  <br>") == "é")
        // Trimmed: the first "\n " and the last " " go.
        #expect(HTMLText.text(String(repeating: "<li>", count: 1000))
                == String(String(repeating: "\n * ", count: 1000).dropFirst(2).dropLast()))
    }

    /// Episodes newest first (oldest first for a serial), those of one date in
    /// the feed's order, as Python's stable sort leaves them: checked against
    /// a plain stable ordering over many dates, ties and cycles of the permutation.
    @Test func episodesOrderedByDateKeepingTheFeedsOrderForTies() {
        // Seeded: a failure repeats as it was.
        var generator = SeededGenerator(seed: 41)
        for count in [0, 1, 2, 3, 17, 500] {
            let episodes = (0..<count).map { Episode(guid: "g\($0)", title: "t\($0)", published: Int64.random(in: 0...9, using: &generator)) }
            for serial in [false, true] {
                let expected = episodes.enumerated().sorted { left, right in
                    if left.element.published != right.element.published {
                        return serial ? left.element.published < right.element.published : left.element.published > right.element.published
                    }
                    return left.offset < right.offset
                }.map(\.element.guid)
                #expect(FeedBuilder.ordered(episodes, serial: serial).map(\.guid) == expected, "\(count) episodes, serial \(serial)")
            }
        }
    }
}
