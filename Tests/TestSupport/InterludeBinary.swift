import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One line of `interlude play --events json`: `{"t": 1.25, "event": "trackStarted", "path": "..."}`.
public struct InterludeEvent: Sendable, Equatable, CustomStringConvertible {
    /// A JSON value of an event field other than `t` and `event`.
    public enum Value: Sendable, Equatable, CustomStringConvertible {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
        /// Arrays and objects, kept as their JSON text.
        case json(String)

        public var description: String {
            switch self {
            case .string(let text): return text
            case .number(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
            case .bool(let flag): return String(flag)
            case .null: return "null"
            case .json(let text): return text
            }
        }
    }

    /// Seconds since the player started (monotonic).
    public var t: Double
    /// The event name: `trackStarted`, `trackEnded`, `underrun`, `error`, `finished`, ...
    public var event: String
    /// Every other field of the object.
    public var fields: [String: Value]

    public init(t: Double, event: String, fields: [String: Value] = [:]) {
        self.t = t
        self.event = event
        self.fields = fields
    }

    /// `fields["path"]` as text (trackStarted).
    public var path: String? { fields["path"].map(\.description) }
    /// `fields["message"]` as text (error).
    public var message: String? { fields["message"].map(\.description) }
    /// A numeric field, e.g. `number("underruns")` of `finished`.
    public func number(_ key: String) -> Double? {
        if case .number(let value)? = fields[key] { return value }
        return nil
    }

    public var description: String {
        let rest = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return String(format: "%.3f ", t) + event + (rest.isEmpty ? "" : " " + rest)
    }

    /// Parses one line; nil when it is not a JSON object with a numeric `t` and a string `event`.
    public static func parse(line: String) -> InterludeEvent? {
        guard let object = try? JSONDecoder().decode([String: Value].self, from: Data(line.utf8)),
              case .number(let t)? = object["t"],
              case .string(let event)? = object["event"]
        else { return nil }
        return InterludeEvent(t: t, event: event, fields: object.filter { $0.key != "t" && $0.key != "event" })
    }
}

extension InterludeEvent.Value: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool first: a JSON true/false never decodes as a number, and vice versa.
        if container.decodeNil() { self = .null }
        else if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let text = try? container.decode(String.self) { self = .string(text) }
        else if let array = try? container.decode([InterludeEvent.Value].self) {
            self = .json("[" + array.map(\.jsonText).joined(separator: ",") + "]")
        } else {
            let object = try container.decode([String: InterludeEvent.Value].self)
            self = .json("{" + object.sorted { $0.key < $1.key }.map { "\(quoted($0.key)):\($0.value.jsonText)" }
                .joined(separator: ",") + "}")
        }
    }

    var jsonText: String {
        switch self {
        case .string(let text): return quoted(text)
        case .json(let text): return text
        default: return description
        }
    }
}

private func quoted(_ text: String) -> String {
    let data = try? JSONEncoder().encode(text)
    return data.map { String(decoding: $0, as: UTF8.self) } ?? "\"\(text)\""
}

/// The events of one run, with the stdout lines that were not events.
public struct EventLog: Sendable {
    public var events: [InterludeEvent]
    /// Non-empty stdout lines that did not parse as events (a contract break worth reporting).
    public var invalidLines: [String]

    public init(stdout: String) {
        events = []
        invalidLines = []
        for line in stdout.split(whereSeparator: \.isNewline) {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            if let event = InterludeEvent.parse(line: text) { events.append(event) } else { invalidLines.append(text) }
        }
    }

    /// The events named `name`, in order.
    public func named(_ name: String) -> [InterludeEvent] { events.filter { $0.event == name } }
    /// How many `underrun` events the writer reported.
    public var underrunCount: Int { named("underrun").count }
    /// The `underruns` field of the final `finished` event, when the binary sends one.
    public var reportedUnderruns: Int? { named("finished").last?.number("underruns").map { Int($0) } }
}

/// The `interlude` executable under test.
///
/// Its path is `INTERLUDE_BIN` when set (the Makefile sets it), else
/// `<package root>/.build/debug/interlude` (or `release`), the package root being found
/// from this source file's location.
public enum InterludeBinary {
    /// The root of the package (the directory holding Package.swift).
    public static var packageRoot: String {
        // This file is <root>/Tests/TestSupport/InterludeBinary.swift.
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }

    /// The binary's path: `INTERLUDE_BIN`, else the build product for `configuration`.
    public static func path(configuration: String = "debug") -> String {
        if let path = ProcessInfo.processInfo.environment["INTERLUDE_BIN"], !path.isEmpty { return path }
        return "\(packageRoot)/.build/\(configuration)/interlude"
    }

    /// True when the binary was built with AddressSanitizer (`make test-sanitize`):
    /// its resident memory then holds ASan's shadow and its quarantine of freed
    /// blocks (measured: 32 MB more after a 10 MB line read in 64 KiB pieces,
    /// leak checks on or off), so a test of the player's own footprint measures
    /// ASan instead. Asked of the binary
    /// itself: only an instrumented one lists ASan's flags for `ASAN_OPTIONS=help=1`.
    public static let isAddressSanitized: Bool = {
        guard isAvailable(), let result = try? run(["help"], environment: ["ASAN_OPTIONS": "help=1"], timeout: 60)
        else { return false }
        return result.stderrText.contains("Available flags for AddressSanitizer")
    }()

    /// True when the binary exists and is executable.
    public static func isAvailable(configuration: String = "debug") -> Bool {
        access(path(configuration: configuration), X_OK) == 0
    }

    /// Runs `interlude arguments...` to completion (see `ProcessRunner.run`).
    public static func run(_ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil,
                           timeout: Double? = 120, configuration: String = "debug") throws -> ProcessResult {
        try ProcessRunner.run(path(configuration: configuration), arguments, environment: environment,
                              stdin: stdin, timeout: timeout)
    }

    /// Starts `interlude arguments...` in the background with stdout captured, for tests
    /// that act while it plays (send a signal, type, stop it). Read its events with
    /// `BackgroundProcess.eventsSoFar()` / `waitForEvent`; stop it with `stop()`.
    public static func start(_ arguments: [String], environment: [String: String] = [:], stdinPath: String? = nil,
                             configuration: String = "debug") throws -> BackgroundProcess {
        try BackgroundProcess.start(path(configuration: configuration), arguments, environment: environment,
                                    stdinPath: stdinPath)
    }

    /// The output choice for `play`.
    public enum Output: Sendable {
        /// `--device NAME` (ALSA).
        case device(String)
        /// `--output wav:PATH`.
        case wav(String)
        /// `--output null`.
        case null
        /// The null sink through ALSA: `--device pulse`, with the sink's environment.
        case pulse(NullSink)

        var arguments: [String] {
            switch self {
            case .device(let name): return ["--device", name]
            case .wav(let path): return ["--output", "wav:\(path)"]
            case .null: return ["--output", "null"]
            case .pulse: return ["--device", "pulse"]
            }
        }

        var environment: [String: String] {
            if case .pulse(let sink) = self { return sink.environment }
            return [:]
        }
    }

    /// What `play` returned: the process result and its parsed events.
    public struct PlayResult: Sendable {
        public var process: ProcessResult
        public var events: EventLog
    }

    /// Runs `interlude play FILES... <output> [--latency MS] --events json [extra]` and
    /// parses its events.
    public static func play(_ files: [String], output: Output, latencyMilliseconds: Int? = nil,
                            extraArguments: [String] = [], environment: [String: String] = [:],
                            timeout: Double? = 300, configuration: String = "debug") throws -> PlayResult {
        var arguments = ["play"] + files + output.arguments
        if let latencyMilliseconds { arguments += ["--latency", String(latencyMilliseconds)] }
        arguments += ["--events", "json"] + extraArguments
        let env = output.environment.merging(environment) { _, new in new }
        let result = try run(arguments, environment: env, timeout: timeout, configuration: configuration)
        return PlayResult(process: result, events: EventLog(stdout: result.stdoutText))
    }
}

extension BackgroundProcess {
    /// The events the process has printed so far (it must run with `--events json`).
    public func eventsSoFar() -> EventLog {
        EventLog(stdout: String(decoding: currentStdout(), as: UTF8.self))
    }

    /// Polls stdout every 10 ms until an event matching `predicate` appears; nil when
    /// `timeout` seconds pass or the process exits without printing one.
    public func waitForEvent(timeout: Double, where predicate: (InterludeEvent) -> Bool) -> InterludeEvent? {
        let deadline = monotonicSeconds() + timeout
        while true {
            let running = isRunning
            if let event = eventsSoFar().events.first(where: predicate) { return event }
            guard running, monotonicSeconds() < deadline else { return nil }
            usleep(10_000)
        }
    }

    /// `waitForEvent` for the first event named `name`.
    public func waitForEvent(named name: String, timeout: Double) -> InterludeEvent? {
        waitForEvent(timeout: timeout) { $0.event == name }
    }
}
