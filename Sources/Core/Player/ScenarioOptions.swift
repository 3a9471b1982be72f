import PlayerModel
import Alarms
import InterludeCore

/// Interruptions to stage during `interlude play`, for tests and users' own
/// scripts. Times count from the start of playback, in seconds.
public struct ScenarioOptions: Equatable, Sendable {
    public var alarmIn: Double?
    public var alarmRing: Double = 60
    public var alarmSound: AlarmSound?
    /// Whole seconds from silence to full volume (`--alarm-ramp`); 0: none.
    public var alarmRamp = 0
    /// The Snapcast rooms the staged alarm rings in (`--alarm-rooms`); empty: every room.
    public var alarmRooms: [String] = []
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

    package static let valuedFlags: Set<String> = ["--alarm-in", "--alarm-ring", "--alarm-sound", "--alarm-ramp", "--alarm-rooms", "--suspend-at", "--continue-at",
                                           "--notify-at", "--call-at", "--call-end", "--resume-delay", "--smart-rewind",
                                           "--fade"]
    package static let flags: Set<String> = ["--spoken"]

    /// What each option accepts; `DurationRange` says why each is bounded.
    package static let ranges: [String: DurationRange] = [
        "--alarm-in": DurationRange(seconds: 0.001...DurationRange.week),
        "--alarm-ring": DurationRange(seconds: 0.001...3600),
        "--suspend-at": moment, "--continue-at": moment, "--notify-at": moment, "--call-at": moment, "--call-end": moment,
        "--resume-delay": DurationRange(seconds: 0.1...5),
        "--smart-rewind": DurationRange(seconds: 0...3600),
        "--fade": DurationRange(seconds: 0...1),
    ]
    /// A moment of the staged scenario, counted from the start of playback.
    package static let moment = DurationRange(seconds: 0...DurationRange.week)

    package static func parse(_ parsed: ParsedArguments) throws(UsageError) -> ScenarioOptions {
        var options = ScenarioOptions()
        func seconds(_ flag: String, _ text: String) throws(UsageError) -> Double {
            let range = ranges[flag] ?? moment
            guard let value = range.parse(text) else {
                throw UsageError("play: \(flag) '\(text)' is not \(range.accepts)")
            }
            return value
        }
        func seconds(_ flag: String) throws(UsageError) -> Double? {
            guard let text = parsed.value(flag) else { return nil }
            return try seconds(flag, text)
        }
        options.alarmIn = try seconds("--alarm-in")
        options.alarmRing = try seconds("--alarm-ring") ?? 60
        if let text = parsed.value("--alarm-rooms") {
            guard let rooms = Alarm.rooms(parsing: text) else {
                throw UsageError("play: --alarm-rooms '\(text)' is not up to \(Alarm.roomLimit) names separated by commas")
            }
            options.alarmRooms = rooms
        }
        do throws(AlarmCommandError) {
            options.alarmSound = try parsed.value("--alarm-sound").map { text throws(AlarmCommandError) in
                try AlarmInputParser.parseSound(text, fileExists: StateFile.isReadableFile, command: "play")
            }
            options.alarmRamp = try parsed.value("--alarm-ramp").map { text throws(AlarmCommandError) in
                try AlarmInputParser.parseRamp(text, command: "play")
            } ?? 0
        } catch {
            throw UsageError(error.message)
        }
        options.suspendAt = try seconds("--suspend-at")
        options.continueAt = try seconds("--continue-at")
        for text in parsed.values["--notify-at"] ?? [] {
            options.notifyAt.append(try seconds("--notify-at", text))
        }
        options.callAt = try seconds("--call-at")
        options.callEnd = try seconds("--call-end")
        if let delay = try seconds("--resume-delay") { options.resumeDelay = delay }
        options.smartRewindMax = try seconds("--smart-rewind")
        if let fade = try seconds("--fade") { options.fadeMilliseconds = ranges["--fade"]!.milliseconds(fade) }
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
