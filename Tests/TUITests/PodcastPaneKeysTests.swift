import PlayerModel
import Testing
@testable import TUI

/// The podcasts pane's keys (P, enter, U, W, M) as commands of the
/// one table, and the pane's rows as drawn.
@Suite struct PodcastPaneKeysTests {
    let source = MemoryBrowserSource.library

    static func episode(_ id: String, played: Bool = false, download: EpisodeRow.Download = .none,
                        downloading: Bool = false) -> EpisodeRow {
        EpisodeRow(id: id, title: "Episode \(id)", date: "2024-01-0\(id)", durationSeconds: 125, isNew: id == "2",
                   played: played, placeMilliseconds: nil, download: download, downloading: downloading)
    }

    var snapshot: PlayerSnapshot {
        var snapshot = PlayerSnapshot()
        snapshot.podcasts = [PodcastRow(id: "aa", title: "First", episodes: []),
                             PodcastRow(id: "bb", title: "Second", episodes: [Self.episode("2"), Self.episode("1", played: true)])]
        return snapshot
    }

    func press(_ state: inout InterfaceState, _ keys: [Key]) -> [InterfaceAction] {
        keys.flatMap { state.handle($0, snapshot: snapshot, source: source) }
    }

    @Test func enterOpensAPodcastThenPlaysItsEpisodeAndPGoesBack() {
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: source))
        #expect(press(&ui, [.character("P")]).isEmpty)
        #expect(ui.focus == .podcasts && ui.openPodcast == nil)
        #expect(press(&ui, [.named(.down), .named(.enter)]).isEmpty)
        #expect(ui.openPodcast == "bb")
        #expect(press(&ui, [.named(.down), .named(.enter)]) == [.player(.playEpisode(podcast: "bb", episode: "1"))])
        #expect(press(&ui, [.character("P")]).isEmpty)
        #expect(ui.focus == .podcasts && ui.openPodcast == nil)
    }

    @Test func downloadAndMarkActOnTheSelectedEpisodeAndMarkToggles() {
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: source))
        _ = press(&ui, [.character("P"), .named(.down), .named(.enter)])
        #expect(press(&ui, [.character("W")]) == [.player(.downloadEpisode(podcast: "bb", episode: "2"))])
        #expect(press(&ui, [.character("M")]) == [.player(.markEpisode(podcast: "bb", episode: "2", played: true))])
        #expect(press(&ui, [.named(.down), .character("M")]) == [.player(.markEpisode(podcast: "bb", episode: "1", played: false))])
        #expect(press(&ui, [.character("U")]) == [.player(.refreshPodcasts)])
    }

    @Test func downloadOutsideAnOpenedPodcastSaysWhatToSelect() {
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: source))
        #expect(press(&ui, [.character("W")]).isEmpty)
        #expect(ui.message?.text == "select an episode in the podcasts pane (P) first (enter opens a podcast)")
        _ = press(&ui, [.character("P"), .named(.enter)])
        #expect(press(&ui, [.character("M")]).isEmpty)
        #expect(ui.message?.text == "First has no episodes; U refreshes")
    }

    @Test func theSocketRowsCheckTheirWords() throws {
        let download = try #require(CommandTable.entry(named: "podcast-download"))
        #expect(try download.action([.string("News")]) == .perform(.downloadEpisode(podcast: "News", episode: nil)))
        #expect(try download.action([.string("News"), .string("3")]) == .perform(.downloadEpisode(podcast: "News", episode: "3")))
        #expect(throws: RemoteArgumentError.self) { try download.action([.string("a"), .string("b"), .string("c")]) }
        let mark = try #require(CommandTable.entry(named: "podcast-mark"))
        #expect(try mark.action([.string("News"), .string("3"), .string("unplayed")])
                == .perform(.markEpisode(podcast: "News", episode: "3", played: false)))
        #expect(throws: RemoteArgumentError.self) { try mark.action([.string("News"), .string("3"), .string("heard")]) }
        #expect(try CommandTable.entry(named: "podcast-refresh")?.action([]) == .perform(.refreshPodcasts))
    }

    @Test func anEpisodeRowSaysItsStateAndADownloadsProgress() {
        #expect(ScreenRenderer.episodeText(Self.episode("2")) == " 2024-01-02  Episode 2  2:05  [new]")
        #expect(ScreenRenderer.episodeText(Self.episode("1", played: true, download: .downloaded))
                == " 2024-01-01  Episode 1  2:05  [played]  [downloaded]")
        #expect(ScreenRenderer.episodeText(Self.episode("1", download: .partial(bytes: 40, of: 100), downloading: true))
                == " 2024-01-01  Episode 1  2:05  [downloading ####------ 40%]")
        #expect(ScreenRenderer.episodeText(Self.episode("1", download: .partial(bytes: 3_000_000, of: nil)))
                == " 2024-01-01  Episode 1  2:05  [partly downloaded 3 MB]")
    }
}
