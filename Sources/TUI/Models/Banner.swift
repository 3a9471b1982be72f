import AudioSession
import PlayerModel

/// The high-contrast line under the title while playback is held by an
/// interruption: a pure function of the player's session snapshot.
///
/// - an interruption holds a player that will resume when it ends (or a
///   suspended session holds a playing one): "audio paused, will resume
///   after alarm" (after the call, ...);
/// - the single attempt after a suspended interruption is scheduled: the
///   same line with a countdown to it;
/// - the player waits for the user (the interruption ended without
///   `shouldResume`, the attempt failed, the output device went away):
///   "audio paused — press space to resume" (the key bound to play-pause
///   now) with the reason;
/// - otherwise (playing, or paused by the user): nothing.
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
    /// With the default key; `pressText(key:)` names the one bound now.
    public static let pressSpaceText = pressText(key: "space")

    /// "audio paused — press P to resume", or with play-pause unbound no key.
    public static func pressText(key: String?) -> String {
        key.map { "audio paused — press \($0) to resume" } ?? "audio paused until you play"
    }

    public let state: State

    /// While nothing holds playback: the missed alarms the listener has not
    /// seen, the latest first ("missed alarm 3 wake: 3 h late, the computer
    /// was asleep (and 1 more) — x: seen"); nil when there are none.
    public static func missed(_ lines: [String], dismissKey: String?) -> (message: String, countdown: String)? {
        guard let latest = lines.last else { return nil }
        let more = lines.count > 1 ? " (and \(lines.count - 1) more)" : ""
        return (latest + more + (dismissKey.map { " — \($0): seen" } ?? ""), "")
    }

    public init(_ session: SessionSnapshot) {
        if let waiting = session.waitingForUser {
            state = .pressSpace(reason: Self.reason(waiting))
        } else if case .scheduled(let deadline) = session.pendingResume {
            state = .countdown(after: session.interruption?.source.name ?? "alarm", deadline: deadline)
        } else if let interruption = session.interruption, interruption.willResume {
            state = .willResume(after: interruption.source.name)
        } else if session.suspended && session.playing {
            // Its late `began` comes when it continues; the music waits for that.
            state = .willResume(after: "suspension")
        } else {
            state = .hidden
        }
    }

    /// The banner's text at `now` (event-time seconds), naming `resumeKey`
    /// (the key bound to play-pause) where the user must resume; nil when
    /// hidden. The countdown part is returned separately so it can be styled.
    public func text(now: Double, resumeKey: String?) -> (message: String, countdown: String)? {
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
            return (Self.pressText(key: resumeKey), reason.isEmpty ? "" : " (\(reason))")
        }
    }

    /// Whether the banner changes by itself over time (the countdown).
    public var isCountingDown: Bool {
        if case .countdown = state { return true }
        return false
    }

    static func reason(_ waiting: PlayerSession.UserResumeReason) -> String {
        switch waiting {
        case .endedWithoutShouldResume(let source): "the \(noun(source.name)) ended without shouldResume"
        case .resumeFailed(let reason): reason
        case .routeDisconnected: "the output device was lost"
        }
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
