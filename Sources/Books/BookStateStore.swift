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

    /// Writes `state` as it is. Writers that may meet another (a player and
    /// `interlude bookmark`, two players of one book) use `update` instead.
    /// A state that `load` would refuse is not written (it would be set aside
    /// at the next read, and again after every save).
    public func save(_ state: BookState, for id: BookID) throws(StateFileError) {
        let json = BookStateFormat.encode(state)
        do throws(BookStateFormat.DecodeError) { _ = try BookStateFormat.decode(json) } catch {
            throw StateFileError(path: file(for: id).path, operation: "save",
                                 systemMessage: "\(error.description), which it would not read back")
        }
        try file(for: id).writeAtomically(Array(JSONWriter().prettyPrinted(json).utf8) + [0x0A])
    }

    /// What `update` did.
    public struct Update: Sendable {
        /// The state with the change made: what the file holds now, unless `failure`.
        public var state: BookState
        /// One sentence when the file was damaged (set aside; the change was
        /// made to the caller's state) or unreadable.
        public var problem: String?
        /// Why the file was not written (it keeps what it held).
        public var failure: StateFileError?
    }

    /// Read, change, write as one step, under the file's lock: `change` is
    /// made to what the file holds now, so what another process wrote since
    /// this one last read it (a bookmark added or deleted by `interlude
    /// bookmark`, another player's place) is kept and nothing stale is written
    /// back; of two places, the last written wins. A file that holds nothing
    /// usable is set aside (once: what is written next loads) and `change` is
    /// made to `fallback`, this writer's last state. A change that leaves
    /// the state as it was writes nothing.
    public func update(_ id: BookID, now: WallInstant, fallback: BookState,
                       _ change: (inout BookState) -> Void) -> Update {
        do throws(StateFileError) {
            return try file(for: id).locked {
                let loaded = load(id, now: now)
                var next = loaded.problem == nil ? loaded.state : fallback
                change(&next)
                var failure: StateFileError?
                // A change that changed nothing (a bookmark that was not there) writes nothing.
                if loaded.problem != nil || next != loaded.state {
                    do throws(StateFileError) { try save(next, for: id) } catch { failure = error }
                }
                return Update(state: next, problem: loaded.problem, failure: failure)
            }
        } catch {
            var next = fallback
            change(&next)
            return Update(state: next, problem: nil, failure: error)
        }
    }
}
