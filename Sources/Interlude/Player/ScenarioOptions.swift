/// Interruptions to stage during `interlude play`, for tests and users' own
/// scripts. Times count from the start of playback, in seconds.
public struct ScenarioOptions: Equatable, Sendable {
    public var alarmIn: Double?
    public var alarmRing: Double = 60
    public var alarmSound: String?
    public var suspendAt: Double?
    public var continueAt: Double?
    public var notifyAt: [Double] = []
    public var callAt: Double?
    public var callEnd: Double?
    public var resumeDelay: Double = 1.0
    /// nil: 30 s for spoken audio, 0 for music.
    public var smartRewindMax: Double?
    public var spoken = false
    /// The pause fade, in milliseconds.
    public var fadeMilliseconds = 30

    public init() {}

    static let valuedFlags: Set<String> = ["--alarm-in", "--alarm-ring", "--alarm-sound", "--suspend-at", "--continue-at",
                                           "--notify-at", "--call-at", "--call-end", "--resume-delay", "--smart-rewind",
                                           "--fade"]
    static let flags: Set<String> = ["--spoken"]

    static func parse(_ parsed: ParsedArguments) throws(UsageError) -> ScenarioOptions {
        var options = ScenarioOptions()
        func seconds(_ flag: String, allowZero: Bool = true) throws(UsageError) -> Double? {
            guard let text = parsed.value(flag) else { return nil }
            guard let value = parseDuration(text), value > 0 || (allowZero && value == 0) else {
                throw UsageError("play: \(flag) '\(text)' is not a duration (like 5, 2.5s, 500ms or 1m)")
            }
            return value
        }
        options.alarmIn = try seconds("--alarm-in", allowZero: false)
        options.alarmRing = try seconds("--alarm-ring", allowZero: false) ?? 60
        options.alarmSound = parsed.value("--alarm-sound")
        options.suspendAt = try seconds("--suspend-at")
        options.continueAt = try seconds("--continue-at")
        for text in parsed.values["--notify-at"] ?? [] {
            guard let value = parseDuration(text) else {
                throw UsageError("play: --notify-at '\(text)' is not a duration (like 5, 2.5s, 500ms or 1m)")
            }
            options.notifyAt.append(value)
        }
        options.callAt = try seconds("--call-at")
        options.callEnd = try seconds("--call-end")
        if let delay = try seconds("--resume-delay") {
            guard (0.1...5).contains(delay) else {
                throw UsageError("play: --resume-delay must be from 0.1 to 5 seconds, not \(delay)")
            }
            options.resumeDelay = delay
        }
        options.smartRewindMax = try seconds("--smart-rewind")
        if let fade = try seconds("--fade") {
            guard fade <= 1 else { throw UsageError("play: --fade must be at most 1 s") }
            options.fadeMilliseconds = Int((fade * 1000).rounded())
        }
        options.spoken = parsed.has("--spoken")
        if (options.suspendAt == nil) != (options.continueAt == nil) {
            throw UsageError("play: --suspend-at and --continue-at go together")
        }
        if let suspend = options.suspendAt, let resume = options.continueAt, resume <= suspend {
            throw UsageError("play: --continue-at must come after --suspend-at")
        }
        if (options.callAt == nil) != (options.callEnd == nil) {
            throw UsageError("play: --call-at and --call-end go together")
        }
        if let start = options.callAt, let end = options.callEnd, end <= start {
            throw UsageError("play: --call-end must come after --call-at")
        }
        return options
    }

    /// Smart rewind maximum in effect: the flag, else 30 s for spoken audio, 0 for music.
    public var effectiveSmartRewind: Double { smartRewindMax ?? (spoken ? 30 : 0) }
}

/// Seconds from `5`, `2.5s`, `500ms`, `3m`, `1h`.
func parseDuration(_ text: String) -> Double? {
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
    for (suffix, scale) in units where text.hasSuffix(suffix) {
        return Double(text.dropLast(suffix.count)).flatMap { $0.isFinite ? $0 * scale : nil }
    }
    return Double(text).flatMap { $0.isFinite ? $0 : nil }
}
