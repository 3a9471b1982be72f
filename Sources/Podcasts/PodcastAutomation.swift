/// The optional automation after each refresh: the newest
/// episodes downloaded before they are asked for, and the downloads of
/// episodes heard long ago removed. Pure: what each episode is now goes in,
/// what to do comes out; the files are touched at the edge.
public enum PodcastAutomation {
    /// An episode as the automation sees it.
    public struct Status: Sendable, Equatable {
        public var id: String
        /// Seconds since the epoch (the feed's date), 0 when unknown.
        public var published: Int64
        public var hasEnclosure: Bool
        public var downloaded: Bool
        /// When it was marked played (or heard to its end), seconds since
        /// the epoch; nil while it is not played.
        public var playedAt: Int64?

        public init(id: String, published: Int64, hasEnclosure: Bool, downloaded: Bool, playedAt: Int64?) {
            self.id = id
            self.published = published
            self.hasEnclosure = hasEnclosure
            self.downloaded = downloaded
            self.playedAt = playedAt
        }
    }

    /// The episodes to download: of the newest `count` by date (the feed's
    /// order between equal dates), those with an enclosure that are neither
    /// downloaded nor played. A played episode is not fetched again, so a
    /// download removed after it was heard stays removed.
    public static func downloads(newest count: Int, of episodes: [Status]) -> [String] {
        guard count > 0 else { return [] }
        let newest = episodes.indices.sorted { left, right in
            if episodes[left].published != episodes[right].published { return episodes[left].published > episodes[right].published }
            return left < right
        }.prefix(count)
        return newest.map { episodes[$0] }.filter { $0.hasEnclosure && !$0.downloaded && $0.playedAt == nil }.map(\.id)
    }

    /// The downloads to remove: of episodes played `age` seconds or longer before `now`.
    public static func removals(playedBefore age: Int64, now: Int64, of episodes: [Status]) -> [String] {
        guard age > 0 else { return [] }
        // Both come from files and clocks: a sum that cannot overflow.
        let cutoff = now.subtractingReportingOverflow(age)
        guard !cutoff.overflow else { return [] }
        return episodes.filter { episode in
            guard episode.downloaded, let playedAt = episode.playedAt else { return false }
            return playedAt <= cutoff.partialValue
        }.map(\.id)
    }
}
