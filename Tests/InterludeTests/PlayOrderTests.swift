@testable import Interlude
import LoopIO
import Core
import AudioEngine
import InterludeCore
import PlayerModel
import Playlists
import TestSupport
import Testing

/// Shuffle, repeat and playlists through the dispatcher, on a runtime that
/// plays over the null output: the tracks the listener reaches, in order, come
/// from the engine's own track events, so a join decoded ahead (gapless) is
/// checked along with the rest.
@Suite(.serialized) struct PlayOrderTests {
    /// Stops the run once `limit` tracks have started.
    final class Host: PlayerHost {
        let limit: Int
        var started: [String] = []
        weak var runtime: PlayerRuntime?
        init(limit: Int) { self.limit = limit }
        func handleSignal(_ number: Int32) -> Bool { false }
        func afterIteration() {}
        var maximumWaitMilliseconds: Int? { nil }
        var keepsRunningWhenQueueEnds: Bool { false }
        func playbackEvent(_ event: PlaybackEvent) {
            guard case .trackStarted(_, let path) = event else { return }
            started.append(path)
            if started.count >= limit { runtime?.perform(.quit) }
        }
    }

    static func files(_ count: Int) throws -> [String] {
        try (0..<count).map { try Fixtures.mp3(.tone(frequency: 300 + 50 * Double($0)), seconds: 0.3) }
    }

    static func runtime(_ paths: [String]) throws -> (PlayerRuntime, PlayerEventStream) {
        let stream = PlayerEventStream()
        stream.writesErrorsToStandardError = false
        let runtime = try #require(PlayerRuntime.open(configuration: .init(output: .null), paths: paths, events: stream,
                                                      signals: SignalChannel([])))
        return (runtime, stream)
    }

    @Test("shuffle with repeat all: every file once per cycle, never the same file across a boundary", arguments: [UInt64(1), 2, 3])
    func shuffleRepeatAllPlaysCycles(seed: UInt64) throws {
        let paths = try Self.files(5)
        let (runtime, _) = try Self.runtime(paths)
        runtime.playOrder.seed = seed
        #expect(runtime.perform(.toggleShuffle) == .done(report: .shuffle(on: true)))
        #expect(runtime.perform(.cycleRepeat) == .done(report: .repeatMode("all")))
        let host = Host(limit: 15)
        host.runtime = runtime
        _ = runtime.run(host: host)
        #expect(host.started.count == 15)
        for start in stride(from: 0, to: 15, by: 5) {
            #expect(Set(host.started[start..<start + 5]) == Set(paths), "cycle at \(start): \(host.started)")
            if start > 0 { #expect(host.started[start] != host.started[start - 1]) }
        }
        // Shuffled: the three cycles are not all in the queued order.
        #expect(host.started != paths + paths + paths)
    }

    @Test("shuffled and repeated, the joins stay gapless: a pair cut from one tone renders as the pair twice, sample for sample")
    func shuffleRepeatStaysGapless() throws {
        let pair = try Fixtures.gaplessPair(.tone(frequency: 440), firstSeconds: 1.3, secondSeconds: 0.9)
        let first = try WAVFile.read(Fixtures.decodedByMPG123(pair.first))
        let second = try WAVFile.read(Fixtures.decodedByMPG123(pair.second))
        let output = ScratchFiles.makeDirectory("playorder") + "/shuffled.wav"
        let stream = PlayerEventStream()
        stream.writesErrorsToStandardError = false
        let runtime = try #require(PlayerRuntime.open(configuration: .init(output: .wav(path: output)),
                                                      paths: [pair.first, pair.second], events: stream,
                                                      signals: SignalChannel([])))
        runtime.playOrder.seed = 7
        _ = runtime.perform(.toggleShuffle)
        _ = runtime.perform(.cycleRepeat)
        // Two files, the first playing: every cycle is first, second (a cycle may not begin with the
        // file the last one ended on), so the render is the uncut signal twice over, then the start of a third.
        let host = Host(limit: 5)
        host.runtime = runtime
        _ = runtime.run(host: host)
        #expect(host.started == [pair.first, pair.second, pair.first, pair.second, pair.first])
        let rendered = try WAVFile.read(output)
        let twice = first.appending(second).appending(first).appending(second)
        #expect(rendered.frameCount >= twice.frameCount)
        let difference = SignalAnalysis.firstDifference(expected: twice, actual: rendered.frames(0..<twice.frameCount))
        #expect(difference == nil, "\(String(describing: difference))")
    }

    @Test("three files shuffled over three cycles render as their decodes in the order played, sample for sample")
    func shuffledRenderIsTheDecodesInPlayOrder() throws {
        let paths = try (0..<3).map { try Fixtures.mp3(.tone(frequency: 500 + 100 * Double($0)), seconds: 0.7) }
        var decoded: [String: PCMAudio] = [:]
        for path in paths { decoded[path] = try WAVFile.read(Fixtures.decodedByMPG123(path)) }
        let output = ScratchFiles.makeDirectory("playorder") + "/three.wav"
        let stream = PlayerEventStream()
        stream.writesErrorsToStandardError = false
        let runtime = try #require(PlayerRuntime.open(configuration: .init(output: .wav(path: output)), paths: paths,
                                                      events: stream, signals: SignalChannel([])))
        runtime.playOrder.seed = 11
        _ = runtime.perform(.toggleShuffle)
        _ = runtime.perform(.cycleRepeat)
        let host = Host(limit: 10)
        host.runtime = runtime
        _ = runtime.run(host: host)
        let played = Array(host.started.prefix(9))
        #expect(played.count == 9)
        #expect(played != paths + paths + paths, "not shuffled: \(played)")
        var expected = try #require(decoded[played[0]])
        for path in played.dropFirst() { expected = expected.appending(try #require(decoded[path])) }
        let rendered = try WAVFile.read(output)
        #expect(rendered.frameCount >= expected.frameCount)
        let difference = SignalAnalysis.firstDifference(expected: expected, actual: rendered.frames(0..<expected.frameCount))
        #expect(difference == nil, "\(String(describing: difference))")
    }

    @Test("shuffle off puts what is left back in the order it was queued; toggling right after a new list is safe")
    func shuffleOffRestoresOrder() throws {
        let paths = try Self.files(6)
        let (runtime, _) = try Self.runtime(paths)
        runtime.playOrder.seed = 3
        _ = runtime.perform(.toggleShuffle)
        #expect(Set(runtime.queue) == Set(paths) && runtime.queue.count == 6)
        #expect(runtime.queue != paths, "seed 3 left the order as it was")
        #expect(runtime.perform(.toggleShuffle) == .done(report: .shuffle(on: false)))
        // The first is playing; the rest in their own order again.
        #expect(runtime.queue == paths)
        // A new list, then shuffle on and off before the jump to it is carried out.
        _ = runtime.perform(.playQueue(Array(paths.prefix(3)), startAt: 1))
        _ = runtime.perform(.toggleShuffle)
        _ = runtime.perform(.toggleShuffle)
        #expect(Set(runtime.playList) == Set(paths.prefix(3)))
    }

    @Test("repeat all without shuffle plays the list again in order; repeat one repeats the track")
    func repeatModes() throws {
        let paths = try Self.files(3)
        let (all, _) = try Self.runtime(paths)
        _ = all.perform(.cycleRepeat)
        let host = Host(limit: 7)
        host.runtime = all
        _ = all.run(host: host)
        #expect(host.started == paths + paths + [paths[0]])

        let (one, _) = try Self.runtime(paths)
        _ = one.perform(.cycleRepeat)
        #expect(one.perform(.cycleRepeat) == .done(report: .repeatMode("one")))
        let repeating = Host(limit: 4)
        repeating.runtime = one
        _ = one.run(host: repeating)
        #expect(repeating.started == Array(repeating: paths[0], count: 4))
    }

    @Test("the queue saved as a playlist loads back as the same queue; missing files are named, the rest plays")
    func saveAndLoadQueue() throws {
        let paths = try Self.files(3)
        let (runtime, stream) = try Self.runtime(paths)
        var events: [PlayerEvent] = []
        stream.subscribe { events.append($0.event) }
        let folder = "/tmp/interlude-playorder-\(UInt32.random(in: 0...UInt32.max))"
        let list = folder + "/saved.m3u8"
        defer { try? StateFile(path: list).remove() }
        guard case .done = runtime.perform(.saveQueue(path: list)) else { Issue.record("not saved"); return }
        #expect(events.contains(.queueSaved(path: list, count: 3)))
        let (other, otherStream) = try Self.runtime([paths[0]])
        var otherEvents: [PlayerEvent] = []
        otherStream.subscribe { otherEvents.append($0.event) }
        #expect(other.perform(.loadPlaylist(path: list)) == .done(report: .playlistLoaded(count: 3, path: list, missing: 0)))
        #expect(other.playList == paths)

        // One file the playlist names is gone: the rest loads, the missing one is named.
        var text = String(decoding: try #require(try StateFile(path: list).read()), as: UTF8.self)
        text += "gone.mp3\n"
        try StateFile(path: list).writeAtomically(Array(text.utf8))
        #expect(other.perform(.loadPlaylist(path: list))
            == .done(report: .playlistLoaded(count: 3, path: list, missing: 1)))
        #expect(otherEvents.contains(.error("\(list): \(folder)/gone.mp3 is missing (skipped)")))
        #expect(otherEvents.contains(.playlistLoaded(path: list, count: 3, missing: 1)))
    }
}
