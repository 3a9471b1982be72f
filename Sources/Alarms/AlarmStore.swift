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
        let bytes: [UInt8]?
        do {
            bytes = try file.read()
        } catch {
            return LoadResult(contents: .empty, problem: "\(error.description); using no alarms")
        }
        guard let bytes else { return LoadResult(contents: .empty) }
        let reason: String
        do throws(JSONParseError) {
            let json = try JSONParser.parse(bytes)
            if let version = AlarmFileFormat.version(of: json), version != Self.currentVersion {
                reason = "it has version \(version), this program reads version \(Self.currentVersion)"
            } else {
                do throws(AlarmFileFormatError) {
                    let document = try AlarmFileFormat.decode(json)
                    let highest = document.alarms.map(\.id.rawValue).max() ?? 0
                    return LoadResult(contents: Contents(alarms: document.alarms, nextID: max(document.nextID, highest + 1)))
                } catch {
                    reason = "it is not valid alarm JSON (\(error.description); edited?)"
                }
            }
        } catch {
            reason = bytes.isEmpty ? "it is empty" : "it is not valid alarm JSON (\(error.description); truncated or edited?)"
        }
        let suffix = ".corrupt-" + Self.timestamp(now)
        do {
            let aside = try file.setAside(suffix: suffix)
            return LoadResult(
                contents: .empty,
                problem: "alarm file \(path) could not be read: \(reason); moved it to \(aside) and started with no alarms",
                setAsidePath: aside)
        } catch {
            return LoadResult(
                contents: .empty,
                problem: "alarm file \(path) could not be read: \(reason), and \(error.description); using no alarms")
        }
    }

    public func save(_ contents: Contents) throws(StateFileError) {
        let document = AlarmFileFormat.Document(version: Self.currentVersion, nextID: contents.nextID, alarms: contents.alarms)
        // Slashes escaped as JSONEncoder wrote them, so files stay byte-identical across the change.
        let text = JSONWriter(escapesSlashes: true).prettyPrinted(AlarmFileFormat.encode(document))
        try file.writeAtomically(Array(text.utf8) + [0x0A])
    }

    /// `20250330T071500Z`: sorts by time, safe in a file name.
    static func timestamp(_ instant: WallInstant) -> String {
        let seconds = instant.secondsSince1970
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let date = LocalDate(daysSinceEpoch: days)
        let rest = seconds - days * 86_400
        func two(_ value: Int64) -> String { String(value).leftPadded(to: 2) }
        return "\(String(date.year).leftPadded(to: 4))\(two(Int64(date.month)))\(two(Int64(date.day)))T\(two(rest / 3600))\(two(rest % 3600 / 60))\(two(rest % 60))Z"
    }
}
