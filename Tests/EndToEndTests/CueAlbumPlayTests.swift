import Foundation
import Testing
import TestSupport
import TUI

/// Cue albums through the binary: `interlude play ALBUM.cue` queues the sheet's
/// tracks (music), while the image file itself stays a book (see
/// `BookFormatTests` and the book tests over a FLAC with a cue sheet).
@Suite struct CueAlbumPlayTests {
    @Test func aCueSheetPlaysItsTracksAsTheImageWithTheirTitles() throws {
        let album = try CueAlbumFixture.make("play")
        let reference = try Fixtures.decodedByFFmpeg(album.encoded, sampleRate: CueAlbumFixture.rate, channels: 2)
        let output = album.folder + "/out.wav"
        let result = try InterludeBinary.play([album.sheet], output: .wav(output), timeout: 60)
        #expect(result.process.exitStatus == 0, "\(result.process.summary)")
        #expect(result.process.stderrText.isEmpty, "\(result.process.stderrText)")
        let started = result.events.named("trackStarted")
        #expect(started.compactMap(\.path) == album.trackPaths)
        #expect(started.map { $0.fields["title"]?.description } == CueAlbumFixture.tracks.map(\.title))
        // Music, not a book: no book opened, and three track ends.
        #expect(result.events.named("trackEnded").count == 3)
        #expect(result.events.named("bookOpened").isEmpty)
        let rendered = try WAVFile.read(output)
        #expect(rendered.frameCount == reference.frameCount)
        let difference = SignalAnalysis.firstDifference(expected: reference, actual: rendered)
        #expect(difference == nil, "\(String(describing: difference))")
    }

    /// A sheet naming a missing file: one line naming the sheet and the file;
    /// the album after it plays whole.
    @Test func aSheetNamingAMissingFileIsOneLineAndTheRestPlays() throws {
        let album = try CueAlbumFixture.make("missing")
        let missing = album.folder + "/gone.cue"
        try Data("TITLE \"Gone\"\nFILE \"nowhere.flac\" WAVE\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n".utf8)
            .write(to: URL(fileURLWithPath: missing))
        let result = try InterludeBinary.play([missing, album.sheet], output: .null, timeout: 60)
        #expect(result.process.exitStatus == 0, "\(result.process.summary)")
        let lines = result.process.stderrText.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(missing) && lines[0].contains("nowhere.flac"), "\(lines)")
        #expect(result.events.named("trackStarted").compactMap(\.path) == album.trackPaths)
    }

    /// `info` on a sheet shows the album: its audio file's format and each
    /// track's title and times; on `ALBUM.cue#N`, that track alone.
    @Test func infoOnASheetListsItsTracksWithTheirTimes() throws {
        let album = try CueAlbumFixture.make("info")
        let result = try InterludeBinary.run(["info", album.sheet, "--json"])
        #expect(result.succeeded, "\(result.summary)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(object["album"] as? String == "Cue Album")
        #expect(object["artist"] as? String == "Interlude Tests")
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.count == 1 && files.first?["codec"] as? String == "FLAC" && files.first?["frames"] as? Int == 6 * CueAlbumFixture.rate)
        let tracks = try #require(object["tracks"] as? [[String: Any]])
        #expect(tracks.compactMap { $0["title"] as? String } == CueAlbumFixture.tracks.map(\.title))
        #expect(tracks.compactMap { $0["path"] as? String } == album.trackPaths)
        let starts = CueAlbumFixture.tracks.map { Double($0.cdFrames) / 75 }
        for (index, track) in tracks.enumerated() {
            let start = try #require(track["start"] as? Double)
            let end = try #require(track["end"] as? Double)
            #expect(abs(start - starts[index]) <= 0.001)
            // Each track ends where the next begins; the last at the image's end.
            #expect(abs(end - (index + 1 < starts.count ? starts[index + 1] : 6)) <= 0.001)
        }
        let text = try InterludeBinary.run(["info", album.sheet]).stdoutText
        #expect(CueAlbumFixture.tracks.allSatisfy { text.contains($0.title) } && text.contains("FLAC"), "\(text)")

        let track = try InterludeBinary.run(["info", album.trackPaths[1]])
        #expect(track.succeeded, "\(track.summary)")
        #expect(track.stdoutText.contains("title:     \(CueAlbumFixture.tracks[1].title)"), "\(track.stdoutText)")
        // The track's bitrate is its image's, and it has no chapter table to be damaged.
        #expect(!track.stdoutText.contains(" 0 kbps") && !track.stdoutText.contains("damaged"), "\(track.stdoutText)")
    }

    @Test func infoOnASheetNamingAMissingFileIsOneLine() throws {
        let album = try CueAlbumFixture.make("info-missing")
        let missing = album.folder + "/gone.cue"
        try Data("FILE \"nowhere.flac\" WAVE\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n".utf8)
            .write(to: URL(fileURLWithPath: missing))
        let result = try InterludeBinary.run(["info", missing])
        #expect(result.exitStatus == 1)
        let lines = result.stderrText.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(missing) && lines[0].contains("nowhere.flac"), "\(lines)")
    }

    /// The folder browser lists the sheet as the album it is (enter or e on it queues its tracks).
    @Test func theBrowserListsTheSheetByItsTitle() throws {
        let album = try CueAlbumFixture.make("browse")
        let entries = try #require(FileSystemBrowserSource().entries(in: album.folder))
        let sheet = try #require(entries.first { $0.path == album.sheet })
        #expect(sheet.title == "Cue Album" && sheet.artist == "Interlude Tests" && !sheet.isDirectory)
    }
}

/// The full-screen player started with a sheet: its tracks in the queue pane,
/// by their titles from the sheet, the first one playing (music, not a book).
@Suite(.serialized) struct CueAlbumScreenTests {
    @Test func startedWithASheetTheQueueHoldsItsTracks() throws {
        let album = try CueAlbumFixture.make("screen")
        let session = try TUISession(columns: 120, rows: 40, arguments: [album.sheet])
        let shown = session.waitFor { screen in CueAlbumFixture.tracks.allSatisfy { screen.contains($0.title) } }
        #expect(shown.met, "\(shown.screen)")
        #expect(!shown.screen.contains("EXITED"), "\(shown.screen)")
        try session.press("q")
    }
}
