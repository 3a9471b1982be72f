#if canImport(Glibc)
import PlayerModel
import LoopIO
import LibraryIO
import Core
import Glibc
#endif
import Books
import InterludeCore
import Podcasts

/// `interlude podcast add|list|refresh|remove|import|export|play|download`: subscriptions
/// from the command line, in `$XDG_DATA_HOME/interlude/podcasts.json`.
public enum PodcastCommand {
    public static let help = """
    usage: interlude podcast add URL
           interlude podcast list [NAME] [--json]
           interlude podcast refresh [NAME...] [--parallel N]
           interlude podcast remove NAME
           interlude podcast import FILE
           interlude podcast export [FILE]
           interlude podcast play NAME [EPISODE] [play options]
           interlude podcast download NAME [EPISODE]

    Podcasts are kept in $XDG_DATA_HOME/interlude/podcasts.json (default
    ~/.local/share/interlude), each one's episodes beside it in podcasts/ID/.
    NAME is a podcast's id, its feed URL or its title (or the start of it).

      add        fetch the feed at URL (RSS 2.0 with iTunes tags, Atom,
                 Podcasting 2.0) and subscribe to it
      list       the podcasts; with NAME, its episodes: date, title, length,
                 new since the last refresh; --json gives title, date, GUID,
                 enclosure URL, length and type of each
      refresh    fetch every feed (or those named), a few at once, asking
                 only for what changed (ETag, Last-Modified); new episodes
                 are marked, a feed that fails gives one line; then, as the
                 config file's podcast-remove-played and
                 podcast-auto-download say, removes the downloads of
                 episodes played long ago and downloads each podcast's
                 newest episodes
      remove     unsubscribe
      import     subscribe to the feeds of an OPML file (gPodder's,
                 AntennaPod's), then fetch them
      export     the subscriptions as OPML, to FILE or standard output
      play       play an episode (the newest unless EPISODE names one: its
                 number in 'list NAME', its GUID or its title) as a book:
                 from its download when there is one, else streamed from
                 its URL; it resumes where it was left (less smart
                 rewind), at its speed or its podcast's, with chapters,
                 bookmarks and the sleep timer; the options are play's
                 (see 'interlude play --help')
      download   fetch an episode (the newest unless EPISODE names one)
                 into podcasts/ID/; a download cut off (a dropped
                 connection, a full disk, a kill) keeps what came and is
                 resumed by the next one with a range request
      --parallel N  feeds fetched at once, 1-32 (default 8)
      --json     machine-readable output
    """

    static let spec = ArgumentSpec(command: "podcast", valued: ["--parallel"], flags: ["--json"])
    static let parallelRange = CountRange(1...32)

    public static func run(_ arguments: [String]) -> Int32 {
        // play takes play's options, not podcast's.
        if arguments.first == "play" { return play(Array(arguments.dropFirst())) }
        let parsed: ParsedArguments
        do { parsed = try spec.parse(arguments) } catch {
            writeStandardError("interlude \(error.message)\n")
            return 2
        }
        if parsed.has("--help") || parsed.has("-h") || parsed.positionals.first == "help" {
            writeStandardOutput(help + "\n")
            return 0
        }
        guard let action = parsed.positionals.first else {
            writeStandardError("interlude podcast: give add, list, refresh, remove, import, export, play or download (see 'interlude podcast --help')\n")
            return 2
        }
        var parallel = 8
        if let text = parsed.value("--parallel") {
            guard let value = parallelRange.parse(text) else {
                writeStandardError("interlude podcast: --parallel takes \(parallelRange.accepts), got '\(text)'\n")
                return 2
            }
            parallel = value
        }
        let words = Array(parsed.positionals.dropFirst())
        UserConfigFile.load().useNetworkLimits()
        let store = PodcastStore(directories: XDGDirectories(environment: ProcessEnvironment.current()))
        let commands = PodcastCommands(store: store, parallel: parallel)
        switch action {
        case "add":
            guard words.count == 1 else { return usage("podcast add: give one feed URL") }
            return commands.add(words[0])
        case "list", "ls":
            guard words.count <= 1 else { return usage("podcast list: one podcast at a time") }
            return commands.list(words.first, json: parsed.has("--json"))
        case "refresh":
            return commands.refresh(words)
        case "remove", "rm":
            guard words.count == 1 else { return usage("podcast remove: give one podcast") }
            return commands.remove(words[0])
        case "import":
            guard words.count == 1 else { return usage("podcast import: give one OPML file") }
            return commands.importOPML(words[0])
        case "export":
            guard words.count <= 1 else { return usage("podcast export: at most one file") }
            return commands.exportOPML(words.first)
        case "download":
            guard (1...2).contains(words.count) else { return usage("podcast download: give a podcast and an episode") }
            return commands.download(words[0], episode: words.count > 1 ? words[1] : nil)
        default:
            writeStandardError("interlude podcast: unknown action '\(action)' (see 'interlude podcast --help')\n")
            return 2
        }
    }

    /// `podcast play NAME [EPISODE] [play options]`: the headless player over the episode.
    static func play(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            writeStandardOutput(help + "\n")
            return 0
        }
        var options: PlayCommand.Options
        do { options = try PlayCommand.parse(arguments) } catch {
            if !arguments.contains(where: { !$0.hasPrefix("-") }) { return usage("podcast play: give a podcast (and an episode)") }
            writeStandardError("interlude podcast \(error.message)\n")
            return 2
        }
        guard (1...2).contains(options.files.count) else { return usage("podcast play: give a podcast and at most one episode") }
        options.episode = PlayCommand.EpisodeRequest(podcast: options.files[0], episode: options.files.count > 1 ? options.files[1] : nil)
        return HeadlessPlayer(options: options).run()
    }

    private static func usage(_ message: String) -> Int32 {
        writeStandardError("interlude \(message) (see 'interlude podcast --help')\n")
        return 2
    }
}

/// What each `podcast` action does, over one store.
struct PodcastCommands {
    var store: PodcastStore
    var parallel: Int
    var now: () -> WallInstant = { SystemClock().wallNow }

    private func fail(_ line: String, status: Int32 = 1) -> Int32 {
        writeStandardError("interlude: \(line)\n")
        return status
    }

    /// Says an outcome's lines, then what was done (status 0) or why not (status 1).
    private func say(_ outcome: PodcastSubscribing.Outcome) -> Int32 {
        for note in outcome.notes { writeStandardError("interlude: \(note)\n") }
        if let failure = outcome.failure { return fail(failure) }
        if let done = outcome.done { writeStandardOutput(done + "\n") }
        return 0
    }

    func add(_ text: String) -> Int32 {
        guard PodcastSubscribing.feedURL(text) != nil else { return fail(PodcastSubscribing.notAFeedURL(text), status: 2) }
        return say(PodcastSubscribing.add(text, store: store, now: now))
    }

    /// The one podcast `name` names: its id, its URL, its title, else the one title starting with it.
    func find(_ name: String, in subscriptions: [PodcastSubscription]) -> PodcastSubscription? {
        switch PodcastNames.match(name, in: subscriptions) {
        case .success(let found): return found
        case .failure(let message):
            writeStandardError("interlude: \(message)\n")
            return nil
        }
    }


    func list(_ name: String?, json: Bool) -> Int32 {
        let loaded = store.load(now: now())
        if let problem = loaded.problem { writeStandardError("interlude: \(problem)\n") }
        guard let name else {
            let rows = loaded.subscriptions.map { subscription -> (PodcastSubscription, [StoredEpisode]) in
                (subscription, store.loadEpisodes(of: subscription.id, now: now()).episodes)
            }
            if json {
                let values = rows.map { subscription, episodes -> JSONValue in
                    var object: [String: JSONValue] = ["id": .string(subscription.id), "title": .string(subscription.title),
                                                       "url": .string(subscription.url), "episodes": .integer(Int64(episodes.count)),
                                                       "new": .integer(Int64(episodes.filter(\.isNew).count))]
                    if let refreshed = subscription.refreshed { object["refreshed"] = .integer(refreshed) }
                    if let problem = subscription.problem { object["problem"] = .string(problem) }
                    return .object(object)
                }
                writeStandardOutput(JSONWriter().prettyPrinted(.array(values)) + "\n")
            } else if rows.isEmpty {
                writeStandardOutput("no podcasts (add one with 'interlude podcast add URL')\n")
            } else {
                for (subscription, episodes) in rows {
                    let new = episodes.filter(\.isNew).count
                    var line = "\(subscription.id)  \(subscription.title)  (\(episodes.count) episodes"
                    line += new > 0 ? ", \(new) new)" : ")"
                    if let problem = subscription.problem { line += "  [\(problem)]" }
                    writeStandardOutput(line + "\n")
                }
            }
            return 0
        }
        guard let subscription = find(name, in: loaded.subscriptions) else { return 1 }
        let (episodes, problem) = store.loadEpisodes(of: subscription.id, now: now())
        if let problem { writeStandardError("interlude: \(problem)\n") }
        if json {
            let values = episodes.map { stored -> JSONValue in
                var object = Self.json(stored).objectValue ?? [:]
                let listener = listenerSide(subscription, stored)
                object["played"] = .bool(listener.played)
                object["place"] = listener.place.map { .double(Double($0) / 1000) } ?? .null
                object["download"] = listener.download.map { .string($0) } ?? .null
                return .object(object)
            }
            writeStandardOutput(JSONWriter().prettyPrinted(.array(values)) + "\n")
        } else {
            for (index, stored) in episodes.enumerated() {
                let episode = stored.episode
                let date = episode.published > 0 ? PodcastNames.date(episode.published) : "          "
                var line = "\(index + 1). \(date)  \(episode.title)"
                if episode.duration > 0 { line += "  " + clockText(Double(episode.duration)) }
                if stored.isNew { line += "  [new]" }
                let listener = listenerSide(subscription, stored)
                if listener.played {
                    line += "  [played]"
                } else if let place = listener.place, place > 0 {
                    line += "  [at \(clockText(Double(place) / 1000))]"
                }
                if let download = listener.download { line += "  [\(download)]" }
                writeStandardOutput(line + "\n")
            }
        }
        return 0
    }

    /// What the listener's side holds of an episode: its place (the books'
    /// state store, by the episode's identity), heard to the end or not, its download.
    func listenerSide(_ podcast: PodcastSubscription, _ stored: StoredEpisode) -> (place: Int?, played: Bool, download: String?) {
        let books = BookStateStore(directories: XDGDirectories(environment: ProcessEnvironment.current()))
        let loaded = books.load(EpisodeOpener.identity(podcast: podcast.id, episode: stored.id), now: now())
        let state = loaded.problem == nil && loaded.state.updated != BookState.start.updated ? loaded.state : nil
        let played = state.map { state in state.durationMilliseconds.map { $0 > 0 && $0 - state.positionMilliseconds < 2_000 } ?? false } ?? false
        let file = EpisodeFiles.download(in: store.folder(of: podcast.id), episode: stored)
        return (state?.positionMilliseconds, played, EpisodeDownload.state(of: file, length: stored.episode.enclosure?.length ?? -1))
    }

    func download(_ name: String, episode word: String?) -> Int32 {
        let chosen: EpisodeOpener.Chosen
        switch EpisodeOpener.choose(podcast: name, episode: word, store: store) {
        case .success(let found): chosen = found
        case .failure(let error): return fail(error.message)
        }
        guard let url = chosen.episode.episode.enclosure?.url else {
            return fail("\(chosen.episode.episode.title) has no enclosure: nothing to download")
        }
        let title = chosen.episode.episode.title
        let showsProgress = isatty(2) != 0
        var download = EpisodeDownload(url: url, destination: chosen.download)
        download.progress = { have, whole in
            guard showsProgress else { return }
            let amount = whole.map { "\(min(100, max(0, have) * 100 / max(1, $0)))% of \(EpisodeDownload.megabytes($0))" }
                ?? EpisodeDownload.megabytes(have)
            writeStandardError("\r\u{1B}[Kdownloading \(title): \(amount)")
        }
        let outcome: EpisodeDownload.Outcome
        do throws(HTTPFetchError) { outcome = try download.run() } catch {
            if showsProgress { writeStandardError("\r\u{1B}[K") }
            return fail(error.message)
        }
        if showsProgress { writeStandardError("\r\u{1B}[K") }
        switch outcome {
        case .already: writeStandardOutput("\(title) is downloaded already: \(chosen.download)\n")
        case .downloaded(let bytes): writeStandardOutput("downloaded \(title) (\(EpisodeDownload.megabytes(bytes))) to \(chosen.download)\n")
        }
        return 0
    }

    static func json(_ stored: StoredEpisode) -> JSONValue {
        let episode = stored.episode
        var object: [String: JSONValue] = [
            "id": .string(stored.id), "guid": .string(episode.guid), "title": .string(episode.title),
            "published": .integer(episode.published), "duration": .integer(Int64(episode.duration)),
            "description": .string(episode.description), "new": .bool(stored.isNew),
            "url": .null, "length": .null, "type": .null,
        ]
        if let enclosure = episode.enclosure {
            object["url"] = .string(enclosure.url)
            object["length"] = .integer(enclosure.length)
            object["type"] = .string(enclosure.type)
        }
        if let link = episode.link { object["link"] = .string(link) }
        if let chapters = episode.chaptersURL { object["chapters"] = .string(chapters) }
        return .object(object)
    }

    /// YYYY-MM-DD in UTC.

    func refresh(_ names: [String]) -> Int32 {
        var ids: Set<String>?
        if !names.isEmpty {
            let subscriptions = store.load(now: now()).subscriptions
            var chosen = Set<String>()
            for name in names {
                guard let subscription = find(name, in: subscriptions) else { return 1 }
                chosen.insert(subscription.id)
            }
            ids = chosen
        }
        return runRefresh(ids: ids, markNew: true)
    }

    private func runRefresh(ids: Set<String>?, markNew: Bool) -> Int32 {
        let refresh = PodcastRefresh(store: store, parallel: parallel, now: now)
        let outcome: PodcastRefresh.Result
        do {
            let (result, problem) = try refresh.run(ids: ids, markNew: markNew)
            if let problem { writeStandardError("interlude: \(problem)\n") }
            outcome = result
        } catch {
            return fail(error.message)
        }
        for note in outcome.notes { writeStandardError("interlude: \(note)\n") }
        for failure in outcome.failures { writeStandardError("interlude: \(failure)\n") }
        let titles = Dictionary(store.load(now: now()).subscriptions.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        for (id, count) in outcome.newEpisodes.sorted(by: { $0.key < $1.key }) where count > 0 && markNew {
            writeStandardOutput("\(titles[id] ?? id): \(count) new episode\(count == 1 ? "" : "s")\n")
        }
        let fetched = outcome.newEpisodes.count + outcome.unchanged.count
        writeStandardOutput("refreshed \(fetched) podcast\(fetched == 1 ? "" : "s"): \(outcome.unchanged.count) unchanged, "
                            + "\(outcome.failures.count) failed\n")
        if markNew, let automation = PodcastAutomationRun.configured(UserConfigFile.load()) { automate(automation) }
        return outcome.failures.isEmpty ? 0 : 1
    }

    /// `podcast-remove-played`, then `podcast-auto-download`'s downloads one after another.
    private func automate(_ automation: PodcastAutomationRun) {
        let books = BookStateStore(directories: XDGDirectories(environment: ProcessEnvironment.current()))
        let planned = automation.apply(store: store, books: books, now: now())
        for line in planned.removed { writeStandardOutput(line + "\n") }
        for problem in planned.problems { writeStandardError("interlude: \(problem)\n") }
        for wanted in planned.downloads {
            guard case .success(let chosen) = EpisodeOpener.choose(podcast: wanted.podcast, episode: wanted.episode, store: store),
                  let url = chosen.episode.episode.enclosure?.url else { continue }
            do throws(HTTPFetchError) {
                if case .downloaded(let bytes) = try EpisodeDownload(url: url, destination: chosen.download).run() {
                    writeStandardOutput("downloaded \(wanted.title) (\(EpisodeDownload.megabytes(bytes)))\n")
                }
            } catch {
                writeStandardError("interlude: \(error.message)\n")
            }
        }
    }

    func remove(_ name: String) -> Int32 {
        guard let subscription = find(name, in: store.load(now: now()).subscriptions) else { return 1 }
        return say(PodcastSubscribing.remove(subscription, store: store, now: now))
    }

    func importOPML(_ path: String) -> Int32 {
        let outcome = PodcastSubscribing.importOPML(path, store: store, now: now)
        let status = say(outcome)
        guard status == 0, !outcome.added.isEmpty else { return status }
        return runRefresh(ids: outcome.added, markNew: false)
    }

    func exportOPML(_ path: String?) -> Int32 {
        let loaded = store.load(now: now())
        if let problem = loaded.problem { writeStandardError("interlude: \(problem)\n") }
        let text = OPML.document(loaded.subscriptions.map { OPML.Entry(url: $0.url, title: $0.title) },
                                 created: Self.rfc822(now().secondsSince1970))
        guard let path else {
            writeStandardOutput(text)
            return 0
        }
        do {
            try StateFile(path: path).writeAtomically(Array(text.utf8))
        } catch {
            return fail(error.description)
        }
        return 0
    }

    /// "Wed, 02 Dec 2026 08:30:00 +0000".
    static func rfc822(_ seconds: Int64) -> String {
        let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let ymd = PodcastNames.date(seconds).split(separator: "-").map { Int($0) ?? 0 }
        let dayIndex = Int(((seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400) % 7 + 7) % 7)
        let clock = Int((seconds % 86_400 + 86_400) % 86_400)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[dayIndex]), \(two(ymd[2])) \(months[max(0, min(11, ymd[1] - 1))]) \(ymd[0]) "
            + "\(two(clock / 3600)):\(two(clock / 60 % 60)):\(two(clock % 60)) +0000"
    }
}

struct PodcastCommandError: Error {
    var message: String
}


