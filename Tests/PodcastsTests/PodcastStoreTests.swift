#if canImport(Glibc)
import Glibc
#endif
import InterludeCore
import Testing
@testable import Podcasts

/// Two writers of `podcasts.json`: a refresh that runs while `podcast add`
/// and `podcast remove` change the file keeps their changes (`StateMerge`),
/// and its own.
@Suite struct PodcastStoreTests {
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/podcast-store-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        return path
    }

    let now = WallInstant(secondsSince1970: 1_800_000_000)

    func subscription(_ name: String) -> PodcastSubscription {
        PodcastSubscription(id: PodcastSubscription.id(for: "http://h/\(name)"), url: "http://h/\(name)", title: name, added: 1)
    }

    @Test func aRefreshKeepsWhatOthersAddedAndRemovedMeanwhile() throws {
        let store = PodcastStore(dataDirectory: Self.temporaryDirectory())
        let (a, b) = (subscription("a"), subscription("b"))
        _ = try store.update(now: now) { (list: inout [PodcastSubscription]) throws(Never) in list = [a, b] }
        // A refresh starts from what it read...
        let base = store.load(now: now).subscriptions
        var mine = base
        mine[0].etag = "\"new-a\""
        mine[1].etag = "\"new-b\""
        // ...while another process removes b and adds c.
        let c = subscription("c")
        _ = try store.update(now: now) { (list: inout [PodcastSubscription]) throws(Never) in
            list.removeAll { $0.id == b.id }
            list.append(c)
        }
        let written = try store.save(mine, since: base, now: now)
        #expect(written.map(\.id) == [a.id, c.id])
        #expect(written[0].etag == "\"new-a\"")
        #expect(store.load(now: now).subscriptions == written)
    }

    @Test func aDamagedFileIsSetAsideInOneLine() throws {
        let directory = Self.temporaryDirectory()
        let store = PodcastStore(dataDirectory: directory)
        try store.file.writeAtomically(Array("{\"version\": 1, \"podcasts\": [{\"id\": 5}]}".utf8))
        let loaded = store.load(now: now)
        #expect(loaded.subscriptions.isEmpty)
        #expect(loaded.problem?.hasPrefix("podcast file \(directory)/podcasts.json could not be read: a podcast lacks") == true)
    }

    @Test func storedEpisodesKeepTheirStateAcrossRefreshes() {
        let first = [Episode(guid: "1", title: "One"), Episode(guid: "2", title: "Two")]
        let stored = EpisodeIdentity.merged(stored: [], feed: first, now: 10, markNew: false)
        #expect(stored.map(\.isNew) == [false, false])
        let second = [Episode(guid: "3", title: "Three"), Episode(guid: "1", title: "One, renamed")]
        let merged = EpisodeIdentity.merged(stored: stored, feed: second, now: 20, markNew: true)
        #expect(merged.map(\.id) == ["3", "1", "2"])
        #expect(merged.map(\.isNew) == [true, false, false])
        #expect(merged[1].episode.title == "One, renamed")
        #expect(merged.map(\.firstSeen) == [20, 10, 10])
    }
}
