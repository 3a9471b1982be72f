/// The high-contrast line under the title while playback is held by an
/// interruption, driven by the same events `--events json` prints.
///
/// - `interruption` began while the player was playing (or had a resume
///   pending): "audio paused, will resume after alarm" (after the call, ...);
/// - `resumeScheduled` (an interruption of a suspended session ended with
///   `shouldResume`): the same line with a countdown to the single attempt;
/// - the interruption ended without `shouldResume`, the attempt failed
///   (`resumeFailed`), or the output device went away: "audio paused —
///   press space to resume" with the reason;
/// - `resumed`, or the user starting playback: gone.
public struct Banner: Equatable, Sendable {
    public enum State: Equatable, Sendable {
        case hidden
        /// Waiting for the interruption from `source` to end.
        case willResume(after: String)
        /// The single resume attempt is due at `deadline` (event-time seconds).
        case countdown(after: String, deadline: Double)
        case pressSpace(reason: String)
    }

    public static let willResumeText = "audio paused, will resume after alarm"
    public static let pressSpaceText = "audio paused — press space to resume"

    public private(set) var state = State.hidden
    /// Whether the player is playing, as far as the events tell.
    public private(set) var playing = false

    public init() {}

    public mutating func handle(_ event: LoggedEvent) {
        switch event.name {
        case "trackStarted", "resumeRequested":
            playing = true
        case "resumed":
            playing = true
            state = .hidden
        case "pauseRequested":
            playing = false
        case "suspended":
            // The session is suspended (the testing key, or a staged suspension):
            // its late `began` comes when it continues; the music waits for that.
            if playing { state = .willResume(after: "suspension") }
        case "finished", "stopped":
            playing = false
            state = .hidden
        case "interruption":
            let source = event.string("source") ?? "interruption"
            if event.string("type") == "began" {
                if source == "outputDeviceLost" || event.string("reason") == "routeDisconnected" {
                    if playing || state != .hidden { state = .pressSpace(reason: "the output device was lost") }
                } else if playing {
                    state = .willResume(after: source)
                } else if case .willResume = state {
                    state = .willResume(after: source)
                } else if case .countdown = state {
                    // A new interruption while the attempt was pending carries the intent over.
                    state = .willResume(after: source)
                }
                playing = false
            } else {
                guard case .willResume(let after) = state else { return }
                let options = event["options"]?.description ?? ""
                if !options.contains("shouldResume") {
                    state = .pressSpace(reason: "the \(Self.noun(after)) ended without shouldResume")
                }
            }
        case "resumeScheduled":
            let after: String
            switch state {
            case .willResume(let source), .countdown(let source, _): after = source
            default: after = "alarm"
            }
            state = .countdown(after: after, deadline: event.time + (event.number("delay") ?? 0))
        case "resumeFailed":
            playing = false
            state = .pressSpace(reason: event.string("reason") ?? "the resume attempt failed")
        case "stayPaused":
            if case .willResume(let after) = state {
                state = .pressSpace(reason: "the \(Self.noun(after)) ended without shouldResume")
            }
        default:
            break
        }
    }

    /// After a user action, with what the player itself says: when it no
    /// longer expects to resume by itself (the user paused during the
    /// interruption, which cancels the automatic resume without an event of
    /// its own), "will resume" would be a promise nobody keeps.
    public mutating func reconcile(resumeExpected: Bool) {
        switch state {
        case .willResume, .countdown: if !resumeExpected { state = .hidden }
        case .hidden, .pressSpace: break
        }
    }

    /// The banner's text at `now` (event-time seconds); nil when hidden.
    /// The countdown part is returned separately so it can be styled.
    public func text(now: Double) -> (message: String, countdown: String)? {
        switch state {
        case .hidden:
            return nil
        case .willResume(let after):
            return (Self.willResumeMessage(after: after), "")
        case .countdown(let after, let deadline):
            let remaining = max(0, deadline - now)
            let tenths = Int((remaining * 10).rounded(.up))
            return (Self.willResumeMessage(after: after), " — resuming in \(tenths / 10).\(tenths % 10) s")
        case .pressSpace(let reason):
            return (Self.pressSpaceText, reason.isEmpty ? "" : " (\(reason))")
        }
    }

    /// Whether the banner changes by itself over time (the countdown).
    public var isCountingDown: Bool {
        if case .countdown = state { return true }
        return false
    }

    static func willResumeMessage(after source: String) -> String {
        source == "alarm" ? willResumeText : "audio paused, will resume after the \(noun(source))"
    }

    /// How a session source reads in a sentence.
    static func noun(_ source: String) -> String {
        switch source {
        case "suspension": "suspension"
        case "navigation": "spoken prompt"
        default: source
        }
    }
}
