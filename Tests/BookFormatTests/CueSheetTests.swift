import Testing
@testable import BookFormat

/// Cue sheets, parsed over bytes.
struct CueSheetTests {
    static let album = """
    REM GENRE Audiobook
    PERFORMER "Mary Shelley"
    TITLE "Frankenstein"
    FILE "Frankenstein.flac" WAVE
      TRACK 01 AUDIO
        TITLE "Letter 1"
        INDEX 01 00:00:00
      TRACK 02 AUDIO
        TITLE "Chapter 1 — 第一章"
        PERFORMER "Narrator"
        INDEX 00 01:59:70
        INDEX 01 02:00:74
      TRACK 03 AUDIO
        INDEX 01 61:01:01
    """

    @Test func readsTracksTitlesAndTimes() throws {
        let sheet = try CueSheet(text: Self.album)
        #expect(sheet.title == "Frankenstein")
        #expect(sheet.performer == "Mary Shelley")
        let file = try #require(sheet.file(named: "frankenstein.FLAC"))
        #expect(file.tracks.map(\.number) == [1, 2, 3])
        // 74 frames of 1/75 s are 986.67 ms; 1 frame is 13.33 ms: rounded to the nearest.
        #expect(file.tracks.map(\.startMilliseconds) == [0, 120_987, 3_661_013])
        #expect(file.tracks[1].pregapMilliseconds == 119_933)
        #expect(file.tracks[1].performer == "Narrator")
        let chapters = sheet.chapters(of: file, durationMilliseconds: 4_000_000)
        #expect(chapters.map(\.title) == ["Letter 1", "Chapter 1 — 第一章", "Track 3"])
        #expect(chapters.map(\.endMilliseconds) == [120_987, 3_661_013, 4_000_000])
    }

    @Test func acceptsCRLFAByteOrderMarkAndLatin1() throws {
        let text = "FILE x.flac WAVE\r\nTRACK 1 AUDIO\r\nTITLE Caf\u{E9}\r\nINDEX 01 00:01:00\r\n"
        let latin1 = text.unicodeScalars.map { UInt8($0.value) }
        let sheet = try CueSheet(bytes: latin1)
        #expect(sheet.files.first?.tracks.first?.title == "Café")
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        #expect(try CueSheet(bytes: bom).files.first?.tracks.first?.startMilliseconds == 1000)
    }

    @Test func picksTheOnlyFileWhateverItsName() throws {
        let sheet = try CueSheet(text: "FILE \"CDImage.wav\" WAVE\nTRACK 01 AUDIO\nINDEX 01 00:00:00\n")
        #expect(sheet.file(named: "album.flac")?.name == "CDImage.wav")
    }

    @Test(arguments: [
        ("FILE a.flac WAVE\nTRACK 01 AUDIO\nINDEX 01 00:61:00\n", "line 3: bad time '00:61:00'"),
        ("FILE a.flac WAVE\nTRACK 01 AUDIO\nINDEX 01 00:01:75\n", "line 3: bad time '00:01:75'"),
        ("FILE a.flac WAVE\nTRACK 01 AUDIO\nINDEX 01 1:02\n", "line 3: bad time '1:02'"),
        ("FILE a.flac WAVE\nTRACK 01 AUDIO\nINDEX 01 -1:00:00\n", "line 3: bad time '-1:00:00'"),
        // Impossible times, and a minute count whose frames would overflow.
        ("FILE a.flac WAVE\nTRACK 01 AUDIO\nINDEX 01 99:99:99\n", "line 3: bad time '99:99:99'"),
        ("FILE a.flac WAVE\nTRACK 01 AUDIO\nINDEX 01 99999999999999999:00:00\n", "line 3: bad time '99999999999999999:00:00'"),
        ("FILE a.flac WAVE\nTRACK 01 AUDIO\nINDEX 01 153722867280912931:00:00\n", "line 3: bad time '153722867280912931:00:00'"),
        ("TRACK 01 AUDIO\nINDEX 01 00:00:00\n", "line 1: TRACK before any FILE"),
        ("FILE a.flac WAVE\nINDEX 01 00:00:00\n", "line 2: INDEX before any TRACK"),
        ("FILE a.flac WAVE\nTRACK 01 AUDIO\nINDEX 01 00:05:00\nTRACK 02 AUDIO\nINDEX 01 00:04:00\n",
         "track 2 starts before the track above it ends"),
        ("FILE a.flac WAVE\nTRACK 01 AUDIO\nTITLE x\n", "track 1 has no INDEX 01"),
        ("REM nothing here\n", "no TRACK in the sheet"),
    ])
    func rejectsBadSheetsNamingTheLine(_ text: String, _ message: String) {
        #expect {
            _ = try CueSheet(text: text)
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }
}
