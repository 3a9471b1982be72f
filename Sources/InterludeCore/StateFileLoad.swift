/// How a state file's owner names it and what it does without it, for the
/// one-line reports of `StateFile.load(_:now:parse:)`.
public struct StateFileWording: Sendable {
    /// Starts the report: "alarm file" gives "alarm file PATH could not be read: ...".
    public var name: String
    /// What happens instead while the file stays where it is: "using no alarms".
    public var fallback: String
    /// What happened instead once the file was moved aside: "started with no alarms".
    public var fallbackAfterSettingAside: String

    public init(name: String, fallback: String, fallbackAfterSettingAside: String) {
        self.name = name
        self.fallback = fallback
        self.fallbackAfterSettingAside = fallbackAfterSettingAside
    }
}

/// Why a state file's bytes cannot be used, as the clause after "could not
/// be read:" ("it is empty", "it is not valid JSON (...)").
public struct StateFileDamage: Error, Sendable, Equatable {
    public let reason: String

    public init(_ reason: String) { self.reason = reason }
}

/// What `StateFile.load` found.
public struct StateFileLoad<Value> {
    /// The parsed content; nil when the file is missing, unreadable or damaged.
    public var value: Value?
    /// One sentence for the user when the file was damaged or unreadable.
    public var problem: String?
    /// Where a damaged file was moved.
    public var setAsidePath: String?

    public init(value: Value? = nil, problem: String? = nil, setAsidePath: String? = nil) {
        self.value = value
        self.problem = problem
        self.setAsidePath = setAsidePath
    }
}

extension StateFileLoad: Sendable where Value: Sendable {}
extension StateFileLoad: Equatable where Value: Equatable {}

extension StateFile {
    /// Reads and parses the file. A file that cannot be used is never fatal
    /// and never deleted: a damaged one is moved to `PATH.corrupt-<UTC time>`
    /// (kept for inspection; the next save starts clean) and named in one
    /// sentence, and the caller uses its defaults. A missing file is no
    /// problem: `value` is nil and so is `problem`.
    public func load<Value>(
        _ wording: StateFileWording, now: WallInstant, parse: ([UInt8]) throws(StateFileDamage) -> Value
    ) -> StateFileLoad<Value> {
        let bytes: [UInt8]?
        do {
            bytes = try read()
        } catch {
            return StateFileLoad(problem: "\(error.description); \(wording.fallback)")
        }
        guard let bytes else { return StateFileLoad() }
        let damage: StateFileDamage
        do {
            return StateFileLoad(value: try parse(bytes))
        } catch {
            damage = error
        }
        do {
            let aside = try setAside(suffix: ".corrupt-" + now.compactUTC)
            return StateFileLoad(
                problem: "\(wording.name) \(path) could not be read: \(damage.reason); moved it to \(aside) and "
                    + wording.fallbackAfterSettingAside,
                setAsidePath: aside)
        } catch {
            return StateFileLoad(
                problem: "\(wording.name) \(path) could not be read: \(damage.reason), and \(error.description); "
                    + wording.fallback)
        }
    }
}
