import Testing
@testable import BookFormat

/// A cue sheet's tracks as music queue entries (`SHEET.cue#N`).
struct CueTrackTests {
    @Test func trackPathsAreReadBySyntaxOnly() {
        #expect(CueTrackPath("/music/Album.CUE#3") == CueTrackPath(sheetPath: "/music/Album.CUE", trackNumber: 3))
        #expect(CueTrackPath("/music/a.cue#12")?.path == "/music/a.cue#12")
        for notOne in ["/music/a.cue", "/music/a.flac#3", "/music/a.cue#", "/music/a.cue#0", "/music/a.cue#100",
                       "/music/a.cue#x", "/music/a.cue#-1", "a.cue#３"] {
            #expect(CueTrackPath(notOne) == nil, "\(notOne)")
        }
    }

    /// A range's ends are the sheet's CD frames at the output rate: exact where
    /// a CD frame is whole samples (588 at 44.1 kHz, 640 at 48 kHz), and the
    /// end of one track is the start of the next at every rate.
    @Test func rangesAreExactInSamples() throws {
        let sheet = try CueSheet(text: CueSheetTests.album)
        let tracks = try #require(sheet.files.first?.tracks)
        #expect(tracks.map(\.startCDFrames) == [0, 2 * 75 * 60 + 74, 61 * 75 * 60 + 75 + 1])
        let track = CueTrack(audioPath: "/a.flac", title: "x", performer: nil, album: nil, startMilliseconds: 120_987,
                             endMilliseconds: 3_661_013, startCDFrames: 9074, endCDFrames: 274_576)
        #expect(track.frameRange(rate: 44100) == (start: 9074 * 588, end: 274_576 * 588))
        #expect(track.frameRange(rate: 48000) == (start: 9074 * 640, end: 274_576 * 640))
        // 22,050 Hz: 294 samples a CD frame, still whole; 11,025 Hz: 147. 8 kHz: 106.67, rounded.
        #expect(track.frameRange(rate: 8000).start == (9074 * 8000 * 2 + 75) / 150)
    }
}
