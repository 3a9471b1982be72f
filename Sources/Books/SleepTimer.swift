import InterludeCore

/// The sleep timer: after a number of minutes of listening, or at the end of
/// the chapter, playback fades out over 10 s and pauses.
///
/// It counts listening time: it stands still while playback is paused (the
/// application says so with `playbackPaused()` / `playbackResumed`), so a
/// pause for the night does not use it up. The fade begins `fade` before the
/// end (or at once when less is left); `onFadeOut` tells the player how long
/// it lasts, so the player can stop exactly at the end. For the end of the
/// chapter the application gives the listening time left in it whenever that
/// changes other than by playing (start, resume, seek, speed).
///
/// Once fading, the timer has done its work: the pause it causes is the
/// listener's own, and a resume (the listener woke up) turns it off.
public final class SleepTimer {
    public enum Setting: Equatable, Sendable, CustomStringConvertible {
        case minutes(Int)
        case endOfChapter

        /// What the UI offers: 5, 10, 15, 30, 45 and 60 minutes, and the end of the chapter.
        public static let choices: [Setting] = [5, 10, 15, 30, 45, 60].map { .minutes($0) } + [.endOfChapter]

        /// A day of listening at most.
        public static let minutesRange = CountRange(1...1440, unit: "minutes")

        /// `15` (minutes, 1 to 1440) or `chapter`.
        public init?(argument: String) {
            if argument == "chapter" || argument == "end-of-chapter" {
                self = .endOfChapter
            } else if let minutes = Self.minutesRange.parse(argument) {
                self = .minutes(minutes)
            } else {
                return nil
            }
        }

        public var description: String {
            switch self {
            case .minutes(let minutes): "\(minutes) min"
            case .endOfChapter: "end of chapter"
            }
        }
    }

    public enum Phase: Equatable, Sendable {
        case off
        /// Counting down while playback runs.
        case running
        /// Playback is paused; the time left is kept.
        case paused
        /// The fade has begun; the player pauses when it ends.
        case fading
        /// The time is up.
        case expired
    }

    public static let defaultFade = Duration.seconds(10)

    public let fade: Duration
    public private(set) var setting: Setting?
    public private(set) var phase: Phase = .off
    /// The fade begins now and lasts this long; the player should be silent and paused at its end.
    public var onFadeOut: ((Duration) -> Void)?
    /// The time is up (the end of the fade).
    public var onExpired: (() -> Void)?

    private let clock: any Clock
    private var deadline: MonotonicInstant?
    private var leftWhilePaused: Duration?
    private var fadeTimer: TimerToken?
    private var endTimer: TimerToken?

    public init(clock: any Clock, fade: Duration = defaultFade) {
        self.clock = clock
        self.fade = max(.zero, fade)
    }

    /// Listening time until the end, for the status line; nil when off or expired.
    public var remaining: Duration? {
        switch phase {
        case .off, .expired: nil
        case .paused: leftWhilePaused
        case .running, .fading: deadline.map { max(.zero, $0 - clock.monotonicNow) }
        }
    }

    /// Sets the timer. `chapterRemaining` is the listening time left in the
    /// chapter, needed for `.endOfChapter`; `playing` whether it counts now.
    public func start(_ setting: Setting, chapterRemaining: Duration? = nil, playing: Bool = true) {
        cancelTimers()
        self.setting = setting
        let left: Duration
        switch setting {
        case .minutes(let minutes): left = .seconds(60 * minutes)
        case .endOfChapter: left = max(.zero, chapterRemaining ?? .zero)
        }
        if playing {
            arm(left)
        } else {
            phase = .paused
            leftWhilePaused = left
        }
    }

    public func cancel() {
        cancelTimers()
        setting = nil
        phase = .off
        leftWhilePaused = nil
        deadline = nil
    }

    /// Playback paused: stop counting (a fade in progress carries on: it is what pauses).
    public func playbackPaused() {
        guard phase == .running, let deadline else { return }
        cancelTimers()
        leftWhilePaused = max(.zero, deadline - clock.monotonicNow)
        self.deadline = nil
        phase = .paused
    }

    /// Playback resumed: count on (for the end of the chapter, from the
    /// listening time now left in it). A resume after the fade began means
    /// the listener is awake: the timer turns off.
    public func playbackResumed(chapterRemaining: Duration? = nil) {
        switch phase {
        case .paused:
            let left = setting == .endOfChapter ? (chapterRemaining ?? leftWhilePaused ?? .zero) : (leftWhilePaused ?? .zero)
            leftWhilePaused = nil
            arm(left)
        case .fading, .expired:
            cancel()
        case .off, .running:
            break
        }
    }

    /// The position moved other than by playing (seek, chapter change,
    /// speed): an end-of-chapter timer re-plans for the chapter now playing.
    public func positionChanged(chapterRemaining: Duration) {
        guard setting == .endOfChapter else { return }
        switch phase {
        case .running: arm(max(.zero, chapterRemaining))
        case .paused: leftWhilePaused = max(.zero, chapterRemaining)
        case .off, .fading, .expired: break
        }
    }

    private func arm(_ left: Duration) {
        cancelTimers()
        let now = clock.monotonicNow
        let end = now + left
        deadline = end
        phase = .running
        let fadeLength = min(fade, left)
        fadeTimer = clock.schedule(at: end - fadeLength) { [weak self] in
            guard let self else { return }
            self.fadeTimer = nil
            self.phase = .fading
            self.onFadeOut?(max(.zero, end - self.clock.monotonicNow))
        }
        endTimer = clock.schedule(at: end) { [weak self] in
            guard let self else { return }
            self.endTimer = nil
            self.phase = .expired
            self.deadline = nil
            self.onExpired?()
        }
    }

    private func cancelTimers() {
        if let fadeTimer { clock.cancel(fadeTimer) }
        if let endTimer { clock.cancel(endTimer) }
        fadeTimer = nil
        endTimer = nil
    }
}
