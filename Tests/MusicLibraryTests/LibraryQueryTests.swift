import Testing
@testable import MusicLibrary

@Suite struct LibraryQueryTests {
    let daft = LibraryTrack(path: "/m/Daft Punk/Discovery/01 One More Time.mp3", title: "One More Time",
                            artist: "Daft Punk", album: "Discovery", year: 2001, genre: "Électronique")
    let tones = LibraryTrack(path: "/m/東方の音/朝.mp3", title: "朝の音", artist: "Tōhō Ensemble", album: "東方の音", year: 1999)

    @Test func freeWordsArePrefixesAcrossTitleArtistAlbumAndPath() {
        #expect(LibraryQuery("daf").matches(daft))
        #expect(LibraryQuery("disc mor").matches(daft))
        #expect(LibraryQuery("01").matches(daft))
        #expect(!LibraryQuery("aft").matches(daft))
        // Genre is searched only by its field.
        #expect(!LibraryQuery("electro").matches(daft))
        #expect(LibraryQuery("genre:electro").matches(daft))
    }

    @Test func caseAndAccentsDoNotMatter() {
        #expect(LibraryQuery("TOHO").matches(tones))
        #expect(LibraryQuery("tōhō").matches(tones))
        #expect(LibraryQuery("ÉLECTRO").matches(tones) == false)
    }

    @Test func cjkMatchesBySubstring() {
        #expect(LibraryQuery("方の").matches(tones))
        #expect(LibraryQuery("の音").matches(tones))
        #expect(!LibraryQuery("音の").matches(tones))
    }

    @Test func fieldTermsLookInTheirColumnOnly() {
        #expect(LibraryQuery("artist:daft").matches(daft))
        #expect(!LibraryQuery("artist:disc").matches(daft))
        #expect(LibraryQuery("album:\"discovery\" title:one").matches(daft))
        #expect(LibraryQuery("artist:\"daft punk\"").matches(daft))
        let compilation = LibraryTrack(path: "/m/x.mp3", artist: "Someone", albumArtist: "Daft Punk")
        #expect(LibraryQuery("artist:daft").matches(compilation))
    }

    @Test func yearsAreExactRangesOrPrefixes() {
        #expect(LibraryQuery("year:2001").matches(daft))
        #expect(!LibraryQuery("year:2000").matches(daft))
        #expect(LibraryQuery("year:1990-2005").matches(daft))
        #expect(LibraryQuery("year:200").matches(daft))
        #expect(LibraryQuery("year:19").matches(tones))
        #expect(LibraryQuery.yearRange("19") == 1900...1999)
        #expect(LibraryQuery.yearRange("2005-1990") == 1990...2005)
        #expect(LibraryQuery.yearRange("abc") == nil)
    }

    @Test func aTermStillBeingTypedDoesNotEmptyTheList() {
        #expect(LibraryQuery("artist:").isEmpty)
        #expect(LibraryQuery("year:").isEmpty)
        #expect(LibraryQuery("   ").isEmpty)
    }

    @Test func unknownFieldsAreSearchedAsWords() {
        #expect(LibraryQuery("one:more").matches(daft))
    }

    @Test func fullTextExpressionQuotesEveryWord() {
        #expect(LibraryQuery("daft artist:\"or\" 方の").fullTextExpression
            == "{title artist album path} : \"daft\"* AND {artist albumartist} : \"or\"* AND {title artist album path} : \"方 の\"")
        #expect(LibraryQuery("year:1999").fullTextExpression == nil)
    }
}
