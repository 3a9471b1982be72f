import InterludeCore
import Streams

/// The favourite stations, `$XDG_DATA_HOME/interlude/stations.m3u`: an
/// extended M3U (`#EXTINF:-1,NAME` above each URL), which other players
/// read as a playlist of stations. Written atomically (`StateFile`) under the
/// file's lock: every edit is read, change, write as one step (`update`),
/// so it applies to what the file holds at that moment, and two players
/// editing at once each keep the other's change.
/// Lines that are no station (a path, a refused scheme, a URL twice) are
/// named once and kept as they were when the file is written again.
public struct StationStore: Sendable {
    public let file: StateFile

    public static let fileName = "stations.m3u"

    public init(dataDirectory: String) {
        file = StateFile(path: dataDirectory + "/" + Self.fileName)
    }

    public init(directories: XDGDirectories) {
        self.init(dataDirectory: directories.interludeData)
    }

    /// What the file holds.
    public struct Contents: Equatable, Sendable {
        public var list: StationList
        /// Entries that are no station, written back after the stations.
        public var others: [PlaylistEntry]
        /// One sentence naming the file and the entries skipped; nil when all were stations.
        public var problem: String?
    }

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The file could not be read or written: nothing was changed.
        case file(StateFileError)
        case edit(StationEditError)

        public var description: String {
            switch self {
            case .file(let error): error.description
            case .edit(let error): error.message
            }
        }
    }

    /// The stations the file holds; an empty list when there is no file.
    public func load() throws(StateFileError) -> Contents {
        guard let bytes = try file.read(limit: PlaylistFile.byteLimit) else {
            return Contents(list: StationList(), others: [], problem: nil)
        }
        return Self.parse(String(decoding: bytes, as: UTF8.self), path: file.path)
    }

    static func parse(_ text: String, path: String) -> Contents {
        var list = StationList()
        var others: [PlaylistEntry] = []
        var skipped: [String] = []
        for entry in M3UPlaylist.parse(text, folder: PlaylistPath.folder(of: path), limit: PlaylistFile.entryLimit) {
            do throws(StationEditError) {
                try list.add(url: entry.path, name: entry.title)
            } catch {
                others.append(entry)
                skipped.append(error.message)
            }
        }
        let problem = skipped.isEmpty ? nil
            : "station file \(path): \(skipped.count) entr\(skipped.count == 1 ? "y is" : "ies are") no station, kept as "
                + "\(skipped.count == 1 ? "it is" : "they are") (\(skipped[0])\(skipped.count > 1 ? "; ..." : ""))"
        return Contents(list: list, others: others, problem: problem)
    }

    static func text(_ list: StationList, others: [PlaylistEntry], folder: String) -> String {
        // -1: a station has no length, as other players write it.
        M3UPlaylist.write(list.stations.map { PlaylistEntry(path: $0.url, seconds: -1, title: $0.name) } + others, folder: folder)
    }

    /// Reads the file, applies `change` to its stations and writes the result,
    /// under the lock; the list written and `change`'s answer. A `change` that
    /// throws writes nothing.
    public func update<Answer>(_ change: (inout StationList) throws(StationEditError) -> Answer)
        throws(Failure) -> (list: StationList, answer: Answer) {
        let outcome: Result<(StationList, Answer), Failure>
        do {
            outcome = try file.locked { () -> Result<(StationList, Answer), Failure> in
                let contents: Contents
                do throws(StateFileError) { contents = try load() } catch { return .failure(.file(error)) }
                var list = contents.list
                let answer: Answer
                do throws(StationEditError) { answer = try change(&list) } catch { return .failure(.edit(error)) }
                let bytes = Array(Self.text(list, others: contents.others, folder: PlaylistPath.folder(of: file.path)).utf8)
                do throws(StateFileError) { try file.writeAtomically(bytes) } catch { return .failure(.file(error)) }
                return .success((list, answer))
            }
        } catch {
            throw .file(error)
        }
        switch outcome {
        case .success(let (list, answer)): return (list, answer)
        case .failure(let failure): throw failure
        }
    }
}
