@testable import Interlude
import Foundation
import PlayerModel
import TestSupport
import Testing

/// The now-playing title is the reading of the decoder that opened the file
/// (`TrackTagStore`, fed by the feeder): the front ends do not read the file
/// again. Shown by changing the title in the file after it was opened: the
/// snapshot still names what the decoder read.
@Suite(.serialized) struct NowPlayingTagsTests {
    @Test func theTitleShownIsTheOpeningDecodersReading() throws {
        let wav = try Fixtures.wav(.sweep, seconds: 2, sampleRate: 44100, channels: 2)
        let source = try Fixtures.encode(wav, as: .flac16, extraArguments: ["-T", "TITLE=Opened Title", "-T", "ARTIST=Someone"])
        let path = ScratchFiles.makeDirectory("now-playing-tags") + "/track.flac"
        try FileManager.default.copyItem(atPath: source, toPath: path)
        let stream = PlayerEventStream(json: false)
        stream.writesErrorsToStandardError = false
        let runtime = try #require(PlayerRuntime.open(configuration: .init(output: .null), paths: [path], events: stream,
                                                      signals: SignalChannel([])))
        // The same length, so the comment block stays whole: a reader of the file now finds the new title.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let range = try #require(bytes.range(of: Data("Opened Title".utf8)))
        bytes.replaceSubrange(range, with: Data("Edited Title".utf8))
        try bytes.write(to: URL(fileURLWithPath: path))
        let snapshot = runtime.snapshot()
        #expect(snapshot.title == "Opened Title" && snapshot.artist == "Someone", "\(snapshot.title)")
        #expect(snapshot.queue.first?.title == "Opened Title")
    }
}
