@testable import Interlude
import LoopIO
import Core
import AudioSession
import PlayerModel
import TestSupport
import Testing

/// A player that ends frees what it made: nothing it schedules may hold the
/// runtime's objects in a reference cycle. Under `make test-sanitize` a cycle
/// left at exit is also a LeakSanitizer report from the player binary; here it
/// is a weak reference that outlives the runtime, in any build.
@Suite(.serialized) struct RuntimeTeardownTests {
    /// Opens a runtime over the null output, lets `use` drive it, then drops
    /// every strong reference and says whether the runtime and its arbiter went.
    static func freedAfter(_ use: (PlayerRuntime) -> Void) throws -> (runtime: Bool, arbiter: Bool) {
        weak var runtime: PlayerRuntime?
        weak var arbiter: AudioSessionArbiter?
        try {
            let stream = PlayerEventStream()
            stream.writesErrorsToStandardError = false
            let file = try Fixtures.mp3(.sweep, seconds: 2)
            let opened = try #require(PlayerRuntime.open(configuration: .init(output: .null), paths: [file],
                                                         events: stream, signals: SignalChannel([])))
            use(opened)
            runtime = opened
            arbiter = opened.arbiter
        }()
        return (runtime == nil, arbiter == nil)
    }

    @Test("a runtime that did nothing is freed with its arbiter")
    func idleRuntimeIsFreed() throws {
        let freed = try Self.freedAfter { _ in }
        #expect(freed.runtime && freed.arbiter)
    }

    @Test("a notification chime still sounding when the player goes away frees the arbiter (its end timer held it)")
    func pendingChimeDoesNotHoldTheArbiter() throws {
        let freed = try Self.freedAfter { runtime in
            #expect(runtime.perform(.notificationChime) == .done)
        }
        #expect(freed.runtime, "the runtime outlived its last reference")
        #expect(freed.arbiter, "the arbiter outlived the runtime: a timer closure holds it in a cycle")
    }

    @Test("a call left on when the player goes away frees the arbiter")
    func openCallDoesNotHoldTheArbiter() throws {
        let freed = try Self.freedAfter { runtime in
            #expect(runtime.perform(.toggleCall) == .done)
        }
        #expect(freed.runtime && freed.arbiter)
    }
}
