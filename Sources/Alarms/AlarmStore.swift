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
        do throws(AlarmFileFormatError) {
            let document = try AlarmFileFormat.decode(json)
            let highest = document.alarms.map(\.id.rawValue).max() ?? 0
            return Contents(alarms: document.alarms, nextID: max(document.nextID, highest + 1))
        } catch {
            throw StateFileDamage("it is not valid alarm JSON (\(error.description); edited?)")
        }
    }

    private static let wording = StateFileWording(
        name: "alarm file", fallback: "using no alarms", fallbackAfterSettingAside: "started with no alarms")

    public func save(_ contents: Contents) throws(StateFileError) {
        let document = AlarmFileFormat.Document(version: Self.currentVersion, nextID: contents.nextID, alarms: contents.alarms)
        // Slashes escaped as JSONEncoder wrote them, so files stay byte-identical across the change.
        let text = JSONWriter(escapesSlashes: true).prettyPrinted(AlarmFileFormat.encode(document))
        try file.writeAtomically(Array(text.utf8) + [0x0A])
    }
}
