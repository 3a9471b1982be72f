import InterludeCore

/// The alarms file, `$XDG_STATE_HOME/interlude/alarms.json`: versioned JSON,
/// replaced atomically on every save. A file that cannot be read back is
/// never fatal and never deleted: it is reported with its path, renamed to
/// `alarms.json.corrupt-<UTC timestamp>`, and the defaults (no alarms) used.
public struct AlarmStore: Sendable {
    public static let currentVersion = 1
    public static let fileName = "alarms.json"

    /// What the file holds.
    public struct Contents: Sendable, Equatable {
        public var alarms: [Alarm]
        public var nextID: Int

        public init(alarms: [Alarm] = [], nextID: Int = 1) {
            self.alarms = alarms
            self.nextID = nextID
        }

        public static let empty = Contents()

        public mutating func allocateID() -> AlarmID {
            defer { nextID += 1 }
            return AlarmID(rawValue: nextID)
        }
    }

    /// What `load` found.
    public struct LoadResult: Sendable, Equatable {
        public var contents: Contents
        /// One sentence for the user when the file was damaged or unreadable.
        public var problem: String?
        /// Where a damaged file was moved.
        public var setAsidePath: String?
    }

    public let file: StateFile
    public var path: String { file.path }

    public init(stateDirectory: String) {
        file = StateFile(path: stateDirectory + "/" + Self.fileName)
    }

    public init(directories: XDGDirectories) {
        self.init(stateDirectory: directories.interludeState)
    }

    /// Reads the file; a missing file is an empty list, a damaged one is set aside.
    public func load(now: WallInstant) -> LoadResult {
        let loaded = file.load(Self.wording, now: now) { bytes throws(StateFileDamage) in try Self.decode(bytes) }
        return LoadResult(contents: loaded.value ?? .empty, problem: loaded.problem, setAsidePath: loaded.setAsidePath)
    }

    /// The file's bytes as alarms, or why they are not (what `load` reports and
    /// sets aside); pure, so the fuzzer runs it on every input.
    public static func decode(_ bytes: [UInt8]) throws(StateFileDamage) -> Contents {
        let json: JSONValue
        do throws(JSONParseError) {
            json = try JSONParser.parse(bytes)
        } catch {
            throw StateFileDamage(bytes.isEmpty ? "it is empty"
                                  : "it is not valid alarm JSON (\(error.description); truncated or edited?)")
        }
        if let version = AlarmFileFormat.version(of: json), version != Self.currentVersion {
            throw StateFileDamage("it has version \(version), this program reads version \(Self.currentVersion)")
        }
        return try contents(of: json)
    }

    /// The document's alarms, or why they cannot be (shape, ranges, two alarms with one id).
    private static func contents(of json: JSONValue) throws(StateFileDamage) -> Contents {
        let document: AlarmFileFormat.Document
        do throws(AlarmFileFormatError) {
            document = try AlarmFileFormat.decode(json)
        } catch {
            throw StateFileDamage("it is not valid alarm JSON (\(error.description); edited?)")
        }
        var seen = Set<AlarmID>()
        for alarm in document.alarms where !seen.insert(alarm.id).inserted {
            throw StateFileDamage("two alarms have id \(alarm.id) (edited?)")
        }
        let highest = document.alarms.map(\.id.rawValue).max() ?? 0
        return Contents(alarms: document.alarms, nextID: max(document.nextID, highest + 1))
    }

    private static let wording = StateFileWording(
        name: "alarm file", fallback: "using no alarms", fallbackAfterSettingAside: "started with no alarms")

    /// Writes `contents` as they are. A writer that may meet another (the
    /// player and `interlude alarm`, two players) uses `update` or
    /// `save(_:since:now:)` instead. Contents that `load` would refuse are not
    /// written (the next read would set them aside, and again after every save).
    public func save(_ contents: Contents) throws(StateFileError) {
        try file.writeAtomically(try bytes(of: contents))
    }

    private func bytes(of contents: Contents) throws(StateFileError) -> [UInt8] {
        let document = AlarmFileFormat.Document(version: Self.currentVersion, nextID: contents.nextID, alarms: contents.alarms)
        let json = AlarmFileFormat.encode(document)
        do throws(StateFileDamage) { _ = try Self.contents(of: json) } catch {
            throw StateFileError(path: path, operation: "save", systemMessage: "\(error.reason), which it would not read back")
        }
        // Slashes escaped as JSONEncoder wrote them, so files stay byte-identical across the change.
        return Array(JSONWriter(escapesSlashes: true).prettyPrinted(json).utf8) + [0x0A]
    }

    /// Read, change, write as one step under the file's lock (`interlude
    /// alarm add|rm|enable|disable`): `change` sees what the file holds now,
    /// whatever a running player saved a moment ago, and its result is saved
    /// unless it throws. `problem` names a damaged file that was set aside.
    public func update<Failure: Error>(
        now: WallInstant, _ change: (inout Contents) throws(Failure) -> Void
    ) throws(StateFileError) -> (contents: Contents, problem: String?, failure: Failure?) {
        let outcome: Result<(Contents, String?, Failure?), StateFileError> = try file.locked {
            let loaded = load(now: now)
            var contents = loaded.contents
            do throws(Failure) { try change(&contents) } catch {
                return .success((loaded.contents, loaded.problem, error))
            }
            do throws(StateFileError) { try save(contents) } catch { return .failure(error) }
            return .success((contents, loaded.problem, nil))
        }
        return try outcome.get()
    }

    /// What `save(_:since:now:)` wrote.
    public struct Merged: Sendable, Equatable {
        /// What the file holds now: `contents` with every change made elsewhere since `base`.
        public var contents: Contents
        /// Alarms added here under an id another process took meanwhile, and their new ids.
        public var renumbered: [AlarmID: AlarmID]
        /// One sentence when the file was damaged (set aside once, and written anew).
        public var problem: String?
    }

    /// Writes `contents` under the file's lock, merged with what other
    /// processes wrote since `base`, what this writer last read or wrote
    /// (`Contents.merged`): nothing they changed is lost and nothing stale is
    /// written back. A damaged file is set aside and `contents` written as
    /// they are; when the merge changes nothing on disk, nothing is written.
    public func save(_ contents: Contents, since base: Contents, now: WallInstant) throws(StateFileError) -> Merged {
        let outcome: Result<Merged, StateFileError> = try file.locked {
            let onDisk: [UInt8]?
            do throws(StateFileError) { onDisk = try file.read() } catch { return .failure(error) }
            var theirs = base
            var problem: String?
            if onDisk != nil {
                let loaded = load(now: now)
                problem = loaded.problem
                // Damaged or unreadable: nothing is known of others' changes.
                if loaded.problem == nil { theirs = loaded.contents }
            } else {
                // Removed (`rm alarms.json`): every alarm removed elsewhere.
                theirs = .empty
            }
            let (merged, renumbered) = contents.merged(since: base, over: theirs)
            do throws(StateFileError) {
                let bytes = try bytes(of: merged)
                if bytes != onDisk || problem != nil { try file.writeAtomically(bytes) }
            } catch {
                return .failure(error)
            }
            return .success(Merged(contents: merged, renumbered: renumbered, problem: problem))
        }
        return try outcome.get()
    }
}
