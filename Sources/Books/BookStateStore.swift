import InterludeCore

/// The books' state files: `$XDG_STATE_HOME/interlude/books/<book id>.json`,
/// one per book, each replaced atomically (`StateFile`), so a `kill -9` at
/// any moment leaves the old or the new state, never a mix.
///
/// A file that cannot be read back is never fatal and never deleted: it is
/// named in one sentence, moved to `<id>.json.corrupt-<UTC time>`, and the
/// book starts from the beginning.
public struct BookStateStore: Sendable {
    public static let folderName = "books"

    public struct LoadResult: Equatable, Sendable {
        public var state: BookState
        /// One sentence for the user when the file was damaged or unreadable.
        public var problem: String?
        /// Where a damaged file was moved.
        public var setAsidePath: String?
    }

    public let directory: String

    public init(directory: String) { self.directory = directory }

    public init(directories: XDGDirectories) {
        self.init(directory: directories.interludeState + "/" + Self.folderName)
    }

    public func file(for id: BookID) -> StateFile {
        StateFile(path: directory + "/" + id.rawValue + ".json")
    }

    /// The saved state, `.start` when there is none.
    public func load(_ id: BookID, now: WallInstant) -> LoadResult {
        let file = file(for: id)
        let bytes: [UInt8]?
        do {
            bytes = try file.read()
        } catch {
            return LoadResult(state: .start, problem: "\(error.description); starting the book from the beginning")
        }
        guard let bytes else { return LoadResult(state: .start) }
        let reason: String
        do throws(JSONParseError) {
            let json = try JSONParser.parse(bytes)
            do throws(BookStateFormat.DecodeError) {
                return LoadResult(state: try BookStateFormat.decode(json))
            } catch {
                reason = "\(error.description) (edited?)"
            }
        } catch {
            reason = bytes.isEmpty ? "it is empty" : "it is not valid JSON (\(error.description); truncated or edited?)"
        }
        do {
            let aside = try file.setAside(suffix: ".corrupt-" + UTCTimestamp.compact(now))
            return LoadResult(
                state: .start,
                problem: "book state \(file.path) could not be read: \(reason); moved it to \(aside) and started the book from the beginning",
                setAsidePath: aside)
        } catch {
            return LoadResult(
                state: .start,
                problem: "book state \(file.path) could not be read: \(reason), and \(error.description); starting the book from the beginning")
        }
    }

    public func save(_ state: BookState, for id: BookID) throws(StateFileError) {
        let text = JSONWriter().prettyPrinted(BookStateFormat.encode(state))
        try file(for: id).writeAtomically(Array(text.utf8) + [0x0A])
    }
}
