import LoopIO
import InterludeCore
import PlayerModel
import Playlists
#if canImport(Glibc)
import Glibc
#endif

/// MPD's stored playlists over the player's playlists folder (the one the
/// playlists pane, `queue-save` and `playlist-load` use): a playlist's MPD
/// name is its file's name without `.m3u8`, `.m3u` or `.pls`. `save` goes
/// through the command table's `queue-save`, `load` through `queue-add` (MPD
/// adds a playlist to the queue); `listplaylists`, `listplaylist`,
/// `listplaylistinfo` and `rm` read or remove the files themselves.
package struct MPDStoredPlaylists {
    package let commands: MPDCommands

    private static let extensions = [".m3u8", ".m3u", ".pls"]

    package func run(_ name: String, _ arguments: [String]) throws(MPDFailure) -> MPDResponse {
        var response = MPDResponse()
        let folder = PlaylistFile.directory(environment: ProcessEnvironment.current())
        switch name {
        case "listplaylists": try list(into: &response)
        case "listplaylist", "listplaylistinfo":
            let entries = try load(arguments[0], in: folder)
            let songs = name == "listplaylistinfo" ? try commands.server.database.songs(at: entries.map(commands.relative)) : [:]
            for path in entries {
                let relative = commands.relative(path)
                if let song = songs[relative] { response.append(song) } else { response.add("file", relative) }
            }
        case "load":
            var entries = try load(arguments[0], in: folder)
            if arguments.count > 1 {
                let (start, end) = try MPDCommands.range(arguments[1], count: entries.count, clamped: true)
                entries = start >= entries.count ? [] : Array(entries[start..<end])
            }
            var kept: [String] = []
            for entry in entries { if let path = try commands.loadable(entry) { kept.append(path) } }
            entries = kept
            if !entries.isEmpty { try commands.table("add", entries.map { .string($0) }) }
        case "save":
            let checked = try Self.checked(arguments[0])
            guard existing(checked, in: folder) == nil else { throw MPDFailure(.exist, "Playlist already exists") }
            try commands.table(name, [.string(checked)])
            commands.server.note(.storedPlaylist)
        case "playlistadd", "searchaddpl":
            let checked = try Self.checked(arguments[0])
            let position = name == "playlistadd" && arguments.count > 2 ? try MPDCommands.integer(arguments[2]) : nil
            let songs = name == "playlistadd"
                ? try commands.songs(adding: arguments[1], byID: false)
                : try commands.server.database.matching(Array(arguments.dropFirst()), exact: false).map(\.path)
            // MPD makes the playlist with the first song added to it (a search that finds none makes none).
            guard !songs.isEmpty else { break }
            let path = existing(checked, in: folder) ?? folder + "/" + checked + ".m3u8"
            var entries = try entries(of: path)
            if let position, position > entries.count { throw MPDFailure(.argument, "Bad position") }
            entries.insert(contentsOf: songs.map { PlaylistEntry(path: $0) }, at: position ?? entries.count)
            do { try PlaylistFile.save(entries, to: path) } catch { throw MPDFailure(.system, error.description) }
            commands.server.note(.storedPlaylist)
        case "rm":
            guard let path = existing(try Self.checked(arguments[0]), in: folder) else { throw MPDFailure(.noExist, "No such playlist") }
            guard unlink(path) == 0 else { throw MPDFailure(.system, "\(path): \(Errno.current.description)") }
            commands.server.note(.storedPlaylist)
        default: throw .unknownCommand(name)
        }
        return response
    }

    /// Each stored playlist's name and time, as `listplaylists` and the top's `lsinfo` list them.
    package func list(into response: inout MPDResponse) throws(MPDFailure) {
        let folder = PlaylistFile.directory(environment: ProcessEnvironment.current())
        for file in PlaylistFile.list(in: folder) {
            response.add("playlist", Self.mpdName(file))
            if let modified = Self.modified(folder + "/" + file) { response.add("Last-Modified", modified) }
        }
    }

    /// Every path the playlist names, as MPD lists them (a missing file too).
    private func load(_ name: String, in folder: String) throws(MPDFailure) -> [String] {
        guard let path = existing(try Self.checked(name), in: folder) else { throw MPDFailure(.noExist, "No such playlist") }
        do {
            let load = try PlaylistFile.load(path)
            return load.entries.map(\.path) + load.missing
        } catch {
            throw MPDFailure(.system, error.description)
        }
    }

    /// Every entry of the playlist at `path` in its order, a missing file's too (none when there is no file yet).
    private func entries(of path: String) throws(MPDFailure) -> [PlaylistEntry] {
        guard access(path, F_OK) == 0 else { return [] }
        // Written back as M3U: a PLS file would no longer be one.
        guard !path.lowercased().hasSuffix(".pls") else { throw MPDFailure(.system, "\(path): a PLS playlist is not added to here") }
        let bytes: [UInt8]
        do { bytes = try StateFile(path: path).read(limit: PlaylistFile.byteLimit) ?? [] } catch {
            throw MPDFailure(.system, "\(path): \(error.systemMessage)")
        }
        let entries = M3UPlaylist.parse(PlaylistText.decode(bytes), folder: PlaylistPath.folder(of: path), limit: PlaylistFile.entryLimit + 1)
        guard entries.count <= PlaylistFile.entryLimit else { throw MPDFailure(.playlistMax, "Playlist is too large") }
        return entries
    }

    private func existing(_ name: String, in folder: String) -> String? {
        for suffix in PlaylistFile.isPlaylist(name) ? [""] : Self.extensions {
            let path = folder + "/" + name + suffix
            if access(path, F_OK) == 0 { return path }
        }
        return nil
    }

    /// MPD's rule for a playlist's name: no slash, no newline, not empty.
    private static func checked(_ name: String) throws(MPDFailure) -> String {
        guard !name.isEmpty, !name.contains("/"), !name.contains("\n"), !name.hasPrefix(".") else {
            throw MPDFailure(.argument, "Bad playlist name")
        }
        return name
    }

    package static func mpdName(_ file: String) -> String {
        for suffix in extensions where file.lowercased().hasSuffix(suffix) { return String(file.dropLast(suffix.count)) }
        return file
    }

    /// The file's modification time as MPD writes it, `2026-12-02T14:57:54Z`.
    package static func modified(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return time(Int(info.st_mtim.tv_sec))
    }

    /// Seconds since 1970 as MPD writes a time, `2026-12-02T14:57:54Z`.
    package static func time(_ since1970: Int) -> String? {
        var seconds = time_t(since1970)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return nil }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
