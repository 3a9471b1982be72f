#if canImport(Glibc)
import PlayerModel
import LoopIO
import LibraryIO
import Glibc
#endif
import InterludeCore
import MusicLibrary

/// `interlude library scan|stats|search QUERY [--json]`: the music library
/// from the command line, over the same index the full-screen player uses.
public enum LibraryCommand {
    public static let help = """
    usage: interlude library scan [--loudness] [--json]
           interlude library stats [--json]
           interlude library search QUERY... [--sort COLUMN] [--reverse] [--limit N] [--json]

    The library is the folders named by 'library = PATH' lines in
    $XDG_CONFIG_HOME/interlude/config (several allowed), else the music
    folder. Its index is $XDG_CACHE_HOME/interlude/library.sqlite, a cache:
    delete it at any time and the next command rebuilds it.

      scan     read new and changed files, drop the ones gone; with
               --loudness, measure the ReplayGain of files whose tags have
               none (EBU R 128, -18 LUFS) into the index, never the files
      stats    tracks, artists, albums, total time
      search   words match the starts of words in titles, artists, albums
               and paths (case and accents ignored; Chinese, Japanese and
               Korean by substring); artist:, album:, title:, genre:, path:
               look in one field, year:1999, year:1990-1999 or year:199 in
               the year; every term must match
      --sort   artist (default), album, title, year, duration, genre, path, track
      --json   one JSON object (scan, stats) or one per line (search)
    """

    static let spec = ArgumentSpec(command: "library", valued: ["--sort", "--limit"], flags: ["--json", "--reverse", "--loudness"])

    public static func run(_ arguments: [String]) -> Int32 {
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
            writeStandardError("interlude library: give scan, stats or search (see 'interlude library --help')\n")
            return 2
        }
        let words = Array(parsed.positionals.dropFirst())
        switch action {
        case "scan", "stats":
            guard words.isEmpty else {
                writeStandardError("interlude library \(action): unexpected '\(words[0])' (the folders come from the config file)\n")
                return 2
            }
        case "search":
            guard !words.isEmpty else {
                writeStandardError("interlude library search: give a query (see 'interlude library --help')\n")
                return 2
            }
        default:
            writeStandardError("interlude library: unknown action '\(action)' (give scan, stats or search)\n")
            return 2
        }
        var sort = TrackSort()
        if let column = parsed.value("--sort") {
            guard let known = TrackSort.Column(rawValue: column) else {
                let names = TrackSort.Column.allCases.map(\.rawValue).joined(separator: ", ")
                writeStandardError("interlude library: unknown sort column '\(column)' (known: \(names))\n")
                return 2
            }
            sort.column = known
        }
        sort.descending = parsed.has("--reverse")
        var limit: Int?
        if let text = parsed.value("--limit") {
            guard let number = Int(text), number > 0 else {
                writeStandardError("interlude library: --limit needs a whole number above 0, got '\(text)'\n")
                return 2
            }
            limit = number
        }

        let settings = LibrarySettings.load(environment: ProcessEnvironment.current(), config: UserConfigFile.load())
        for problem in settings.problems { writeStandardError("interlude: config: \(problem)\n") }
        let index: LibraryIndex
        do { index = try LibraryIndex(path: settings.indexPath) } catch {
            writeStandardError("interlude: \(error.description)\n")
            return 1
        }
        if let notice = index.notice { writeStandardError("interlude: \(notice)\n") }
        let json = parsed.has("--json")
        do {
            switch action {
            case "scan":
                let result = try scan(index: index, settings: settings, showProgress: !json)
                writeStandardOutput((json ? scanJSON(result, settings: settings) : scanText(result, settings: settings)) + "\n")
                if parsed.has("--loudness") {
                    let loudness = try measureLoudness(index: index)
                    let line = "loudness: \(CommandReport.count(loudness.measured, "file")) measured, "
                        + "\(CommandReport.count(loudness.albums, "album")), \(loudness.failed) failed"
                    if json { writeStandardError(line + "\n") } else { writeStandardOutput(line + "\n") }
                }
            case "stats":
                if index.isNew { try scan(index: index, settings: settings, showProgress: false) }
                let statistics = try index.statistics()
                writeStandardOutput((json ? statsJSON(statistics, settings: settings, index: index)
                                          : statsText(statistics, settings: settings, index: index)) + "\n")
            default:
                if index.isNew { try scan(index: index, settings: settings, showProgress: false) }
                let query = LibraryQuery(words.joined(separator: " "))
                for track in try index.search(query, sort: sort, limit: limit) {
                    writeStandardOutput((json ? trackJSON(track) : trackText(track)) + "\n")
                }
            }
        } catch {
            writeStandardError("interlude: the library index \(settings.indexPath): \(error.message)\n")
            return 1
        }
        return 0
    }

    @discardableResult
    static func scan(index: LibraryIndex, settings: LibrarySettings, showProgress: Bool) throws(SQLiteError) -> LibraryScanner.Progress {
        let scanner = LibraryScanner(folders: settings.folders)
        let terminal = showProgress && isatty(2) != 0
        let result = try scanner.run(index: index, progress: { progress in
            guard terminal, !progress.done else { return }
            writeStandardError("scanning: \(progress.found) files, \(Int(progress.filesPerSecond)) files/s", clearingLine: true)
        }, problem: { line in
            writeStandardError("interlude: library: \(line)\n", clearingLine: terminal)
        })
        if terminal { writeStandardError("", clearingLine: true) }
        return result
    }

    static func scanText(_ result: LibraryScanner.Progress, settings: LibrarySettings) -> String {
        let folders = settings.folders.count == 1 ? "1 folder" : "\(settings.folders.count) folders"
        return "library: \(result.found) files in \(folders): \(result.read) read, \(result.unchanged) unchanged, "
            + "\(result.removed) gone, \(result.failed) skipped (\(seconds(result.seconds)), \(Int(result.filesPerSecond)) files/s)"
    }

    static func scanJSON(_ result: LibraryScanner.Progress, settings: LibrarySettings) -> String {
        let writer = JSONWriter()
        return "{\"files\": \(result.found), \"read\": \(result.read), \"unchanged\": \(result.unchanged), "
            + "\"removed\": \(result.removed), \"skipped\": \(result.failed), \"seconds\": \(result.seconds), "
            + "\"filesPerSecond\": \(result.filesPerSecond.rounded()), "
            + "\"folders\": [\(settings.folders.map(writer.quoted).joined(separator: ", "))]}"
    }

    static func statsText(_ statistics: LibraryIndex.Statistics, settings: LibrarySettings, index: LibraryIndex) -> String {
        let hours = statistics.seconds / 3600
        return """
        tracks:  \(statistics.tracks)
        artists: \(statistics.artists)
        albums:  \(statistics.albums)
        time:    \(Int(hours)) h \(Int((hours - hours.rounded(.down)) * 60)) min
        size:    \(statistics.bytes / 1_000_000) MB
        folders: \(settings.folders.joined(separator: ", "))
        index:   \(index.path)
        """
    }

    static func statsJSON(_ statistics: LibraryIndex.Statistics, settings: LibrarySettings, index: LibraryIndex) -> String {
        let writer = JSONWriter()
        return "{\"tracks\": \(statistics.tracks), \"artists\": \(statistics.artists), \"albums\": \(statistics.albums), "
            + "\"seconds\": \(statistics.seconds), \"bytes\": \(statistics.bytes), "
            + "\"missingLoudness\": \(statistics.missingLoudness), "
            + "\"folders\": [\(settings.folders.map(writer.quoted).joined(separator: ", "))], \"index\": \(writer.quoted(index.path))}"
    }

    static func trackText(_ track: LibraryTrack) -> String {
        var parts = [track.artist ?? track.albumArtist ?? LibraryTree.unknownArtist]
        if let album = track.album { parts.append(track.year.map { "\(album) (\($0))" } ?? album) }
        parts.append(track.displayTitle)
        var line = parts.joined(separator: " - ")
        if let duration = track.durationSeconds { line += " [\(clockText(duration))]" }
        return line + "\t" + track.path
    }

    static func trackJSON(_ track: LibraryTrack) -> String {
        var line = JSONLine()
        line.add("path", track.path)
        line.add("title", ifPresent: track.title)
        line.add("artist", ifPresent: track.artist)
        line.add("artists", strings: track.artists)
        line.add("album", ifPresent: track.album)
        line.add("albumArtist", ifPresent: track.albumArtist)
        line.add("albumArtists", strings: track.albumArtists)
        line.add("track", ifPresent: track.trackNumber)
        line.add("disc", ifPresent: track.discNumber)
        line.add("year", ifPresent: track.year)
        line.add("genre", ifPresent: track.genre)
        line.add("genres", strings: track.genres)
        line.add("format", ifPresent: track.format)
        line.add("seconds", ifPresent: track.durationSeconds, decimals: 6)
        for (name, value) in [("trackGain", track.trackGain), ("trackPeak", track.trackPeak),
                              ("albumGain", track.albumGain), ("albumPeak", track.albumPeak)] {
            line.add(name, ifPresent: value, decimals: 6)
        }
        return line.text
    }

    static func seconds(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return "\(tenths) s"
    }
}
