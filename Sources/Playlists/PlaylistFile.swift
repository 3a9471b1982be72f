import InterludeCore
import Streams

/// A playlist read from disk: the entries whose files exist (and the
/// stations' URLs it holds), the paths of those that do not, and the lines
/// refused with the reason (a PLS entry of another scheme, a line not
/// `KEY=VALUE`): the rest still loads; the caller names the others.
public struct PlaylistLoad: Equatable, Sendable {
    public var entries: [PlaylistEntry]
    public var missing: [String]
    public var refused: [String] = []
}

/// Reading `.m3u`/`.m3u8` and `.pls` files, writing M3U.
public enum PlaylistFile {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case unwritable(path: String, reason: String)
        case notFound(path: String)

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): "cannot read the playlist \(path): \(reason)"
            case .unwritable(let path, let reason): "cannot save the playlist \(path): \(reason)"
            case .notFound(let path): "no playlist at \(path)"
            }
        }
    }

    /// Whether `path` names a playlist by its extension (the playlists pane and the command line).
    public static func isPlaylist(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".m3u") || lower.hasSuffix(".m3u8") || lower.hasSuffix(".pls")
    }

    /// The largest playlist read: 16 MB is some 100,000 entries of long paths.
    public static let byteLimit = 16 << 20
    /// The most entries a playlist may hold; each is looked up on disk when it loads.
    public static let entryLimit = 100_000

    public static func load(_ path: String) throws(Failure) -> PlaylistLoad {
        let bytes: [UInt8]?
        do { bytes = try StateFile(path: path).read(limit: byteLimit) } catch {
            throw .unreadable(path: path, reason: error.systemMessage)
        }
        guard let bytes else { throw .notFound(path: path) }
        let folder = PlaylistPath.folder(of: path)
        var load = PlaylistLoad(entries: [], missing: [])
        var entries: [PlaylistEntry]
        if path.lowercased().hasSuffix(".pls") {
            let pls = PLSPlaylist.parse(bytes)
            load.refused = pls.problems
            entries = []
            for entry in pls.entries.prefix(entryLimit + 1) {
                switch entry.location {
                case .url(let url): entries.append(PlaylistEntry(path: url.text, seconds: entry.lengthSeconds, title: entry.title))
                case .path(let file):
                    entries.append(PlaylistEntry(path: PlaylistPath.resolve(file, against: folder), seconds: entry.lengthSeconds,
                                                 title: entry.title))
                case .refused(let reason): load.refused.append("\(entry.file): \(reason)")
                }
            }
        } else {
            entries = M3UPlaylist.parse(PlaylistText.decode(bytes), folder: folder, limit: entryLimit + 1)
        }
        guard entries.count <= entryLimit else {
            throw .unreadable(path: path, reason: "more than \(entryLimit) entries")
        }
        for entry in entries {
            if case .url = StreamLocation.classify(entry.path) {
                load.entries.append(entry)
            } else if StateFile.isReadableFile(entry.path) {
                load.entries.append(entry)
            } else {
                load.missing.append(entry.path)
            }
        }
        return load
    }

    /// Writes the playlist atomically (a crash leaves the old one or the new one), UTF-8 whatever the extension.
    public static func save(_ entries: [PlaylistEntry], to path: String) throws(Failure) {
        let text = M3UPlaylist.write(entries, folder: PlaylistPath.folder(of: path))
        do { try StateFile(path: path).writeAtomically(Array(text.utf8)) } catch {
            throw .unwritable(path: path, reason: error.systemMessage)
        }
    }

    /// `$XDG_DATA_HOME/interlude/playlists` (default `~/.local/share/interlude/playlists`).
    public static func directory(environment: [String: String]) -> String {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        // A relative XDG value is invalid by the spec and ignored.
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? PlaylistPath.normalize(home + "/.local/share")
        return PlaylistPath.normalize(data + "/interlude/playlists")
    }

    /// The playlists in `directory`, sorted by name; empty when it does not exist.
    public static func list(in directory: String) -> [String] {
        (DirectoryListing.names(in: directory) ?? []).filter(isPlaylist).sorted()
    }
}
