@testable import Interlude
import LoopIO
import Core
import PlayerModel
import TestSupport
import Testing

/// The stop command and the announced system sleep, through the one
/// dispatcher on a runtime over the null output (the frame clock).
@Suite(.serialized) struct StopAndSleepDispatchTests {
    final class Player {
        let runtime: PlayerRuntime
        private(set) var events: [PlayerEvent] = []

        init() throws {
            let stream = PlayerEventStream()
            stream.writesErrorsToStandardError = false
            let file = try Fixtures.mp3(.sweep, seconds: 4)
            runtime = try #require(PlayerRuntime.open(configuration: .init(output: .null), paths: [file], events: stream,
                                                      signals: SignalChannel([])))
            stream.subscribe { [unowned self] in events.append($0.event) }
        }

        var state: PlayerSnapshot.State { runtime.snapshot().state }
    }

    @Test("stop is paused at the track's start and reported stopped; a seek makes it paused there, play plays")
    func stopIsStoppedUntilItMovesOrPlays() throws {
        let player = try Player()
        #expect(player.runtime.perform(.play) == .done)
        #expect(player.runtime.perform(.seek(seconds: 2)) == .done)
        #expect(player.runtime.perform(.stop) == .done)
        #expect(player.state == .stopped)
        #expect(player.runtime.current?.elapsed == 0)
        #expect(player.events.contains(.jump(index: 0, offset: 0, whilePaused: true)))

        // Paused somewhere else now: the seek's place is the position at once, before any resume.
        #expect(player.runtime.perform(.seek(seconds: 1.5)) == .done)
        #expect(player.state == .paused)
        #expect(player.runtime.current?.elapsed == 1.5)
        #expect(player.runtime.perform(.seek(seconds: -1.5)) == .done)
        #expect(player.runtime.current?.elapsed == 0)
        #expect(player.state == .stopped, "back at the start without playing: still stopped")
        #expect(player.runtime.perform(.play) == .done)
        #expect(player.state != .stopped)
        #expect(player.runtime.perform(.pause) == .done)
        #expect(player.runtime.perform(.seek(seconds: -10)) == .done)
        #expect(player.state == .paused, "a pause at the start is not a stop")
    }

    @Test("an announced sleep is reported once each way; a play while it is announced ends it")
    func announcedSleepThroughTheRuntime() throws {
        let player = try Player()
        #expect(player.runtime.perform(.play) == .done)
        player.runtime.systemWillSleep()
        player.runtime.systemWillSleep()
        #expect(player.runtime.arbiter.isSleepAnnounced)
        #expect(player.events.filter { $0 == .systemWillSleep }.count == 1)
        // The wake-up announcement never came; the user plays.
        #expect(player.runtime.perform(.play) == .done)
        #expect(!player.runtime.arbiter.isSleepAnnounced)
        #expect(player.events.filter { $0 == .systemDidWake }.count == 1)
        player.runtime.systemDidWake()
        #expect(player.events.filter { $0 == .systemDidWake }.count == 1)
    }
}
