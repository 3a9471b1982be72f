@testable import Interlude
import PlayerModel
import Testing

/// An unknown option names the help that lists the right ones.
struct UsageWordingTests {
    @Test("the full-screen player's unknown option points at 'interlude --help', a subcommand's at its own")
    func unknownOptionNamesTheRightHelp() {
        let fullScreen = #expect(throws: UsageError.self) { try FullScreenCommand.parse(["--frob"]) }
        #expect(fullScreen?.message == "interlude: unknown option --frob (see 'interlude --help')")
        let play = #expect(throws: UsageError.self) { try PlayCommand.parse(["--frob", "a.mp3"]) }
        #expect(play?.message == "play: unknown option --frob (see 'interlude play --help')")
    }
}
