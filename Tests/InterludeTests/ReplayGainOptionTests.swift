@testable import Interlude
import PlayerModel
import ReplayGain
import Testing

/// `replaygain` and `replaygain-preamp` in the config file, and `--replaygain`
/// and `--replaygain-preamp` for `interlude play`: read, and bad values named in one line.
struct ReplayGainOptionTests {
    @Test("the config keys are read; a bad value is one problem naming the line and what is accepted")
    func configKeys() {
        let config = PlayerConfigFile.parse("replaygain = Album\nreplaygain-preamp = +3.5 dB\n", path: "/c/config")
        #expect(config.problems.isEmpty)
        #expect(config.replayGain == .album && config.replayGainPreamp == 3.5)
        let bad = PlayerConfigFile.parse("replaygain = loud\nreplaygain-preamp = 40\nreplaygain-preamp = nan\n", path: "/c/config")
        #expect(bad.replayGain == nil && bad.replayGainPreamp == nil)
        #expect(bad.problems.map(\.description) == [
            "/c/config:1: replaygain must be track, album or off, not 'loud'",
            "/c/config:2: replaygain-preamp must be \(PlayerConfigFile.preampAccepts), not '40'",
            "/c/config:3: replaygain-preamp must be \(PlayerConfigFile.preampAccepts), not 'nan'",
        ])
    }

    @Test("play's options: mode and preamp, refused with one line when out of range")
    func playOptions() throws {
        let options = try PlayCommand.parse(["a.mp3", "--replaygain", "track", "--replaygain-preamp", "-2"])
        #expect(options.replayGain == .track && options.replayGainPreamp == -2)
        #expect(throws: UsageError.self) { try PlayCommand.parse(["a.mp3", "--replaygain", "loudest"]) }
        do {
            _ = try PlayCommand.parse(["a.mp3", "--replaygain-preamp", "21"])
            Issue.record("a preamp of 21 dB was accepted")
        } catch {
            #expect(error.message == "play: --replaygain-preamp '21' is not \(PlayerConfigFile.preampAccepts)")
        }
    }
}

/// The remote's playlist words: a name of several words is one argument.
struct RemotePlaylistWordsTests {
    @Test("queue save and playlist load, by socket request and by interlude remote's words")
    func words() throws {
        #expect(try RemoteRequest.parse(Array(#"{"id":1,"command":"queue-save","args":["Road trip"]}"#.utf8)).action
            == .perform(.saveQueue(path: "Road trip")))
        #expect(try RemoteRequest.parse(Array(#"{"id":2,"command":"playlist-load","args":["/m/a.m3u"]}"#.utf8)).action
            == .perform(.loadPlaylist(path: "/m/a.m3u")))
        #expect(try RemoteRequest.parse(Array(#"{"id":3,"command":"shuffle"}"#.utf8)).action == .perform(.toggleShuffle))
        let line = RemoteCommandLine.requestLine(id: 1, try RemoteCommandLine.translate(["queue", "save", "Road", "trip"]))
        #expect(line == #"{"id":1,"command":"queue-save","args":["Road trip"]}"#)
    }
}
