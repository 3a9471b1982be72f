import InterludeCore
import PlayerModel

extension ScreenRenderer {
    /// The podcasts pane: the podcasts (episodes, how many new, the last
    /// refresh's problem), or the opened podcast's episodes: date, title,
    /// length, new, played or the place reached, downloaded or how far (a
    /// bar while a download runs). Empty, it says how to subscribe.
    func drawPodcasts(_ frame: inout Frame, _ area: Rect, state: InterfaceState, focused: Bool, snapshot: PlayerSnapshot,
                      range: Range<Int>) {
        guard let podcast = state.openedPodcast(snapshot) else {
            drawRows(&frame, area, cursor: state.podcastsCursor, range: range, focused: focused,
                     empty: "no podcasts yet: " + ([state.bindings.name(of: .podcastAdd).map { "\($0) subscribes to a feed" },
                                                    state.bindings.name(of: .podcastImport).map { "\($0) imports OPML" }]
                                                    .compactMap { $0 }.joined(separator: ", ") + ", or interlude podcast add URL"),
                     rows: snapshot.podcasts.map { podcast in
                         let count = podcast.episodes.count
                         var text = " \(podcast.title)  (\(count) episode\(count == 1 ? "" : "s")"
                         text += podcast.newCount > 0 ? ", \(podcast.newCount) new)" : ")"
                         if let problem = podcast.problem { text += "  [\(problem)]" }
                         return (text: text, playing: false)
                     })
            return
        }
        // The episode playing is the book whose title is its title (a book of one file takes the episode's).
        let playing = snapshot.book?.title
        drawRows(&frame, area, cursor: state.episodesCursor, range: range, focused: focused,
                 empty: "no episodes" + (state.bindings.name(of: .podcastRefresh).map { ": \($0) refreshes" } ?? ""),
                 rows: podcast.episodes.map { episode in
                     (text: Self.episodeText(episode), playing: playing == episode.title)
                 })
    }

    /// "2024-01-05  Title  42:10  [new]  [at 3:00]  [downloading ####------ 40%]".
    static func episodeText(_ episode: EpisodeRow) -> String {
        var text = " " + (episode.date.isEmpty ? String(repeating: " ", count: 10) : episode.date) + "  " + episode.title
        if episode.durationSeconds > 0 { text += "  " + clockText(Double(episode.durationSeconds)) }
        if episode.isNew { text += "  [new]" }
        if episode.played {
            text += "  [played]"
        } else if let place = episode.placeMilliseconds, place > 0 {
            text += "  [at \(clockText(Double(place) / 1000))]"
        }
        switch episode.download {
        case .none: break
        case .downloaded: text += "  [downloaded]"
        case .partial(let bytes, let whole):
            let word = episode.downloading ? "downloading" : "partly downloaded"
            if let whole, whole > 0 {
                let percent = Int(min(100, max(0, bytes) * 100 / whole))
                let filled = percent / 10
                text += "  [\(word) " + String(repeating: "#", count: filled) + String(repeating: "-", count: 10 - filled)
                    + " \(percent)%]"
            } else {
                text += "  [\(word) \(max(0, bytes) / 1_000_000) MB]"
            }
        }
        return text
    }
}
