/// The line a refresh ends with in the player: "refreshed 50 podcasts: 6 new
/// episodes in 3 podcasts, 47 unchanged, 1 failed", "refreshed 1 podcast: no
/// new episodes, 1 unchanged, 0 failed": every count with its noun agreeing.
public enum PodcastRefreshSummary {
    public static func sentence(refreshed: Int, newEpisodes: Int, inPodcasts: Int, unchanged: Int, failed: Int) -> String {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        let arrived = newEpisodes == 0 ? "no new episodes" : "\(count(newEpisodes, "new episode")) in \(count(inPodcasts, "podcast"))"
        return "refreshed \(count(refreshed, "podcast")): \(arrived), \(unchanged) unchanged, \(failed) failed"
    }
}
