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
        let loaded = file(for: id).load(Self.wording, now: now) { bytes throws(StateFileDamage) in
            let json: JSONValue
            do throws(JSONParseError) {
                json = try JSONParser.parse(bytes)
            } catch {
                throw StateFileDamage(bytes.isEmpty ? "it is empty"
                                      : "it is not valid JSON (\(error.description); truncated or edited?)")
            }
            do throws(BookStateFormat.DecodeError) {
                return try BookStateFormat.decode(json)
            } catch {
                throw StateFileDamage("\(error.description) (edited?)")
            }
        }
        return LoadResult(state: loaded.value ?? .start, problem: loaded.problem, setAsidePath: loaded.setAsidePath)
    }

    private static let wording = StateFileWording(
        name: "book state", fallback: "starting the book from the beginning",
        fallbackAfterSettingAside: "started the book from the beginning")

    public func save(_ state: BookState, for id: BookID) throws(StateFileError) {
        let text = JSONWriter().prettyPrinted(BookStateFormat.encode(state))
        try file(for: id).writeAtomically(Array(text.utf8) + [0x0A])
    }
}
