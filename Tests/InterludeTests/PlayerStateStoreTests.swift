@testable import Interlude
import Foundation
import InterludeCore
import Testing

/// player.json: impossible values are damage, and two players
/// (`--new`) saving it keep each other's changes.
struct PlayerStateStoreTests {
    static func store(_ root: String) -> PlayerStateStore {
        PlayerStateStore(directories: XDGDirectories(environment: ["XDG_STATE_HOME": root]))
    }

    static func scratch() throws -> String {
        let root = NSTemporaryDirectory() + "player-state-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/interlude", withIntermediateDirectories: true)
        return root
    }

    @Test("a player.json that parses but holds what no player writes is set aside with one line", arguments: [
        "{\"queue\": [\"/a.mp3\"], \"index\": 0, \"position\": 1e300, \"volume\": 1}",
        "{\"queue\": [\"/a.mp3\"], \"index\": 0, \"position\": -3, \"volume\": 1}",
        "{\"queue\": [\"/a.mp3\"], \"index\": 0, \"position\": 3600000.5, \"volume\": 1}",
        "{\"queue\": [\"/a.mp3\"], \"index\": 1, \"position\": 5, \"volume\": 1}",
        "{\"queue\": [\"/a.mp3\"], \"index\": -1, \"position\": 5, \"volume\": 1}",
        "{\"queue\": [\"/a.mp3\", 7], \"index\": 0, \"position\": 5, \"volume\": 1}",
        "{\"queue\": [\"/a.mp3\"], \"index\": 0, \"position\": 5, \"volume\": 4}",
        "{\"queue\": [\"/a.mp3\"], \"index\": 0, \"position\": 5, \"volume\": -0.5}",
    ])
    func impossibleValuesAreDamage(content: String) throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = Self.store(root)
        try Data(content.utf8).write(to: URL(fileURLWithPath: store.file.path))
        let loaded = store.load()
        #expect(loaded.state == nil)
        let problem = try #require(loaded.problem)
        #expect(problem.contains(store.file.path) && !problem.contains("\n"), "\(problem)")
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/interlude")
        #expect(names.filter { $0.hasPrefix("player.json.corrupt-") }.count == 1, "\(names)")
        // The next start finds the file the last run saved, not damage again.
        try store.save(SavedPlayerState(queue: ["/a.mp3"], index: 0, seconds: 5, volume: 1, theme: nil))
        #expect(Self.store(root).load().problem == nil)
    }

    @Test("the longest place a queue entry can have saves and loads")
    func theLongestPlaceSavesAndLoads() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = SavedPlayerState(queue: ["/a.mp3"], index: 0, seconds: PlayerStateStore.positionRange.seconds.upperBound,
                                     volume: 1, theme: nil)
        try Self.store(root).save(state)
        #expect(Self.store(root).load().state == state)
    }

    @Test("two players save player.json: what the first changed (the volume, the theme) stays where the second changed nothing")
    func twoPlayersKeepEachOthersChanges() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let start = SavedPlayerState(queue: ["/a.mp3", "/b.mp3"], index: 1, seconds: 12, volume: 1, theme: "dark")
        try Self.store(root).save(start)
        let first = Self.store(root)
        let second = Self.store(root)
        #expect(first.load().state == start && second.load().state == start)
        var firstState = start
        firstState.volume = 0.4
        firstState.theme = "light"
        try first.save(firstState)
        // The second player (`--new`) moved on in the queue and kept the volume and theme it started with.
        var secondState = start
        secondState.queue = ["/c.mp3"]
        secondState.index = 0
        secondState.seconds = 3
        try second.save(secondState)
        let saved = try #require(Self.store(root).load().state)
        #expect(saved == SavedPlayerState(queue: ["/c.mp3"], index: 0, seconds: 3, volume: 0.4, theme: "light"))
    }
}
