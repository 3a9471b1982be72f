import Testing
@testable import Podcasts

/// What `podcast-auto-download` fetches and
/// `podcast-remove-played` removes after a refresh, decided on the
/// episodes' states and a clock given in seconds.
@Suite struct PodcastAutomationTests {
    static let day: Int64 = 86_400

    static func episode(_ id: String, published: Int64, downloaded: Bool = false, playedAt: Int64? = nil,
                        enclosure: Bool = true) -> PodcastAutomation.Status {
        PodcastAutomation.Status(id: id, published: published, hasEnclosure: enclosure, downloaded: downloaded, playedAt: playedAt)
    }

    @Test func theNewestNotYetDownloadedNorPlayedAreDownloaded() {
        // In a serial's order (oldest first): the newest are found by their dates, not their places.
        let episodes = [Self.episode("1", published: 100), Self.episode("2", published: 200),
                        Self.episode("3", published: 300, downloaded: true), Self.episode("4", published: 400),
                        Self.episode("5", published: 500, playedAt: 600), Self.episode("6", published: 600, enclosure: false)]
        #expect(PodcastAutomation.downloads(newest: 3, of: episodes) == ["4"])
        #expect(PodcastAutomation.downloads(newest: 5, of: episodes) == ["4", "2"])
        #expect(PodcastAutomation.downloads(newest: 50, of: episodes) == ["4", "2", "1"])
        #expect(PodcastAutomation.downloads(newest: 0, of: episodes).isEmpty)
        // Equal dates keep the feed's order.
        let undated = [Self.episode("a", published: 0), Self.episode("b", published: 0), Self.episode("c", published: 0)]
        #expect(PodcastAutomation.downloads(newest: 2, of: undated) == ["a", "b"])
    }

    @Test func downloadsPlayedTheAgeAgoOrLongerAreRemoved() {
        let now: Int64 = 1_700_000_000
        let week = 7 * Self.day
        let episodes = [Self.episode("old", published: 1, downloaded: true, playedAt: now - 8 * Self.day),
                        Self.episode("exact", published: 2, downloaded: true, playedAt: now - week),
                        Self.episode("recent", published: 3, downloaded: true, playedAt: now - 6 * Self.day),
                        Self.episode("unplayed", published: 4, downloaded: true),
                        Self.episode("gone", published: 5, downloaded: false, playedAt: now - 30 * Self.day)]
        #expect(PodcastAutomation.removals(playedBefore: week, now: now, of: episodes) == ["old", "exact"])
        // The clock moves on: a second before a day later the recent one's turn has not come, a day later it has.
        #expect(PodcastAutomation.removals(playedBefore: week, now: now + Self.day - 1, of: episodes) == ["old", "exact"])
        #expect(PodcastAutomation.removals(playedBefore: week, now: now + Self.day, of: episodes) == ["old", "exact", "recent"])
        #expect(PodcastAutomation.removals(playedBefore: 0, now: now, of: episodes).isEmpty)
        // A clock or a file far out of range removes nothing rather than trap.
        #expect(PodcastAutomation.removals(playedBefore: week, now: Int64.min, of: episodes).isEmpty)
    }
}
