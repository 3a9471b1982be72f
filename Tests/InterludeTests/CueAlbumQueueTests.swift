@testable import Interlude
import LoopIO
import Core
import AudioEngine
import BookFormat
import PlayerModel
import TestSupport
import Testing
import Foundation

/// A cue sheet over a music album gives its tracks in the queue
/// (`SHEET.cue#N` entries, each a range of the image). Driven in process on
/// the WAV sink's frame clock, so the frame each track starts at is read from
/// the feeder itself (stream frames, the output's own in a run without jumps),
/// not from a printed time.
@Suite(.serialized) struct CueAlbumQueueTests {
    /// Records each track start with the output frame it began at; can ask for
    /// `next` once the first track has played `nextAfter` seconds.
    final class Host: PlayerHost {
        weak var runtime: PlayerRuntime?
        var started: [(index: Int, path: String, frame: Int)] = []
        let nextAfter: Double?
        var sentNext = false
        init(nextAfter: Double? = nil) { self.nextAfter = nextAfter }
        func handleSignal(_ number: Int32) -> Bool { false }
        var maximumWaitMilliseconds: Int? { nil }
        var keepsRunningWhenQueueEnds: Bool { false }
        func afterIteration() {
            guard let nextAfter, !sentNext, let runtime, let current = runtime.current,
                  current.index == 0, current.elapsed >= nextAfter else { return }
            sentNext = true
            #expect(runtime.perform(.next) == .done)
        }
        func playbackEvent(_ event: PlaybackEvent) {
            guard case .trackStarted(let index, let path) = event, let runtime else { return }
            let frame = runtime.engine.feeder.tracks.last { $0.index == index && $0.path == path }?.startFrame ?? -1
            started.append((index, path, frame))
        }
    }

    static func play(_ album: CueAlbumFixture, nextAfter: Double? = nil) throws
        -> (host: Host, titles: [String?], rendered: PCMAudio) {
        let output = album.folder + "/out-\(nextAfter == nil ? "whole" : "next").wav"
        let stream = PlayerEventStream()
        stream.writesErrorsToStandardError = false
        var titles: [String?] = []
        stream.subscribe { timed in
            guard case .trackStarted = timed.event else { return }
            titles.append(timed.event.fields.first { $0.key == "title" }.flatMap {
                if case .string(let text) = $0.value { text } else { nil }
            })
        }
        let runtime = try #require(PlayerRuntime.open(configuration: .init(output: .wav(path: output)),
                                                      paths: album.trackPaths, events: stream, signals: SignalChannel([])))
        let host = Host(nextAfter: nextAfter)
        host.runtime = runtime
        _ = runtime.run(host: host)
        return (host, titles, try WAVFile.read(output))
    }

    @Test("the three tracks play as the image does, sample for sample, each starting at its INDEX 01 with its title")
    func tracksJoinAsTheImage() throws {
        let album = try CueAlbumFixture.make("whole")
        let reference = try Fixtures.decodedByFFmpeg(album.encoded, sampleRate: CueAlbumFixture.rate, channels: 2)
        let (host, titles, rendered) = try Self.play(album)
        #expect(host.started.map(\.path) == album.trackPaths)
        #expect(titles == CueAlbumFixture.tracks.map(\.title))
        let oneMillisecond = CueAlbumFixture.rate / 1000
        for (number, start) in host.started.enumerated() {
            #expect(abs(start.frame - CueAlbumFixture.startFrame(number)) <= oneMillisecond,
                    "track \(number + 1) started at frame \(start.frame), INDEX 01 is \(CueAlbumFixture.startFrame(number))")
        }
        #expect(rendered.frameCount == reference.frameCount)
        let difference = SignalAnalysis.firstDifference(expected: reference, actual: rendered)
        #expect(difference == nil, "\(String(describing: difference))")
        // The tags every front end shows (status, MPRIS, the screen) are the sheet's.
        let tags = AudioTags.read(path: album.trackPaths[1])
        #expect(tags.title == "Второй акт" && tags.artists == ["Interlude Tests"] && tags.album == "Cue Album", "\(tags)")
    }

    @Test("next during track 1 goes to track 2's start: what follows is the image from its INDEX 01")
    func nextMovesByTrack() throws {
        let album = try CueAlbumFixture.make("next")
        let reference = try Fixtures.decodedByFFmpeg(album.encoded, sampleRate: CueAlbumFixture.rate, channels: 2)
        let (host, _, rendered) = try Self.play(album, nextAfter: 0.5)
        #expect(host.sentNext)
        #expect(host.started.map(\.path) == album.trackPaths)
        // The render ends with the image from track 2's INDEX 01 to its end (the rest of the album):
        // as long, and after the jump's fade-in (30 ms; 50 ms are left out) the same, sample for
        // sample. What comes before it is the part of track 1 heard before the jump, under a second.
        let second = CueAlbumFixture.startFrame(1)
        let rest = reference.frames(second..<reference.frameCount)
        let jump = rendered.frameCount - rest.frameCount
        #expect(jump > 0 && jump < CueAlbumFixture.rate, "\(jump) frames before the jump")
        let fade = CueAlbumFixture.rate / 20
        let difference = SignalAnalysis.firstDifference(expected: rest.frames(fade..<rest.frameCount),
                                                        actual: rendered.frames(max(0, jump) + fade..<rendered.frameCount))
        #expect(difference == nil, "\(String(describing: difference))")
    }

    /// The browser's enter and `e` and the remote `queue add` send the folder's
    /// files through the dispatcher: a sheet there becomes its tracks, and the
    /// image beside it (which the tracks are already) is left out.
    @Test("enter on a sheet in a folder and queue add of a sheet give its tracks; a broken sheet is one sentence")
    func theDispatcherExpandsSheets() throws {
        let album = try CueAlbumFixture.make("dispatch")
        let other = try Fixtures.mp3(.tone(frequency: 330), seconds: 0.3)
        let expanded = PlayerRuntime.expandingCueSheets([album.image, album.sheet, other], startAt: 1)
        #expect(expanded == .init(paths: album.trackPaths + [other], startAt: 0, problems: []))
        #expect(PlayerRuntime.expandingCueSheets([other, album.sheet], startAt: 1).startAt == 1)

        let (runtime, _) = try PlayOrderTests.runtime([other])
        #expect(runtime.perform(.enqueue([album.sheet])) == .done(report: .queued(count: 3)))
        #expect(runtime.queue == [other] + album.trackPaths)

        let broken = album.folder + "/broken.cue"
        try "FILE \"album.flac\" WAVE\n  TRACK 01 AUDIO\n    INDEX 01 00:01:80\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let refused = runtime.perform(.enqueue([broken]))
        #expect(refused == .refused(reason: .problem("\(broken): not a usable cue sheet: line 3: bad time '00:01:80' (minutes:seconds:frames, 75 frames a second)")))
        #expect(runtime.queue == [other] + album.trackPaths)
    }
}
