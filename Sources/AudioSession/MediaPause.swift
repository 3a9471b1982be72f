import InterludeCore

/// Where the media's pause stands, kept in one place on the main thread:
/// playing, fading out towards a stop, or stopped since an instant; the
/// frame the next pause is aimed at; whether a resume waits for the stop; a
/// jump asked for while paused; and whether anything of what plays has been
/// heard yet. `PlaybackController` carries
/// out the session's actions on the engine and asks this what a pause or a
/// resume means now; the engine's own flags only track its hand-over with
/// the writer thread.
///
/// A resume asked for during the fade either takes the fade back (nothing
/// skipped or repeated) or, with a jump waiting, waits for the stop; one
/// asked for once stopped is due at once. `takeResume` hands the due resume
/// over exactly once.
public final class MediaPause {
    public enum Phase: Sendable, Equatable {
        case playing
        /// A pause was asked for and its fade has not reached silence yet.
        case fading
        /// Silent at the stop frame since this instant (for smart rewind).
        case stopped(since: MonotonicInstant)
    }

    /// Where the next resume goes instead of the stop frame.
    public struct Jump: Sendable, Equatable {
        public let queueIndex: Int
        public let offsetFrames: Int

        public init(queueIndex: Int, offsetFrames: Int) {
            self.queueIndex = queueIndex
            self.offsetFrames = offsetFrames
        }
    }

    /// A resume that is due now.
    public enum Resume: Sendable, Equatable {
        /// Play from the jump's place, with no rewind.
        case jump(Jump)
        /// Play from the stop frame, rewound for `stoppedFor` (none when nothing was heard yet).
        case stopFrame(stoppedFor: Duration, nothingHeardYet: Bool)
    }

    public private(set) var phase: Phase = .playing
    /// The stream frame the next pause is to reach silence on (a sleep
    /// timer's end of chapter), taken by that pause (`pauseRequested`).
    public private(set) var nextPauseAim: Int?
    /// A resume was asked for and waits for the media to stop.
    public private(set) var resumeWaitsForStop = false
    public private(set) var pendingJump: Jump?
    /// Nothing of what plays has been heard (a pipeline held before its first
    /// frame, an output first opened at the user's play): its first resume
    /// plays from the stop frame with no rewind for the wait.
    public private(set) var nothingHeardYet = false

    private let clock: any Clock

    public init(clock: any Clock) {
        self.clock = clock
    }

    public var isStopped: Bool {
        if case .stopped = phase { true } else { false }
    }

    /// Aims the next pause at stream frame `frame`; asked for just before the
    /// pause, and taken back after it (`cancelPauseAim`) in case no pause took it.
    public func aimNextPause(endingAtStreamFrame frame: Int) {
        nextPauseAim = frame
    }

    /// Forgets an aim no pause took, so that no later pause inherits it.
    public func cancelPauseAim() {
        nextPauseAim = nil
    }

    /// What a pause asked for now tells the media.
    public enum PauseOrder: Sendable, Equatable {
        /// Stopped already: nothing.
        case none
        /// Fade out, to silence on `aimedAt` when there is one.
        case fade(aimedAt: Int?)
    }

    /// A pause is asked for: the media fades, with the aim if there is one,
    /// unless it has stopped already. A resume waiting for the stop is called off.
    public func pauseRequested() -> PauseOrder {
        resumeWaitsForStop = false
        guard !isStopped else { return .none }
        phase = .fading
        defer { nextPauseAim = nil }
        return .fade(aimedAt: nextPauseAim)
    }

    /// A pipeline that takes over during an interruption: stopped before its first frame.
    public func holdBeforeFirstFrame() {
        phase = .fading
        nothingHeardYet = true
    }

    /// The output was first opened at the user's play: nothing was heard, and
    /// the media counts as stopped from now.
    public func firstOutputOpened() {
        phase = .stopped(since: clock.monotonicNow)
        nothingHeardYet = true
    }

    /// The media reached silence at its stop frame.
    public func mediaStopped() {
        phase = .stopped(since: clock.monotonicNow)
    }

    /// Whether a resume may take the fade under way back: fading, with no jump waiting.
    public var fadeCanBeTakenBack: Bool { phase == .fading && pendingJump == nil }

    /// The fade was taken back: the media plays on from where it is.
    public func fadeTakenBack() {
        phase = .playing
        resumeWaitsForStop = false
    }

    /// A resume is asked for: due once the media has stopped (`takeResume`).
    public func resumeRequested() {
        resumeWaitsForStop = true
    }

    /// A jump goes to the media at once only while it is meant to go on
    /// sounding: not stopped and with no resume waiting for a stop.
    public var jumpsAtOnce: Bool { !isStopped && !resumeWaitsForStop }

    /// A jump that waits for the next resume (the last one asked for wins).
    public func jumpAtResume(toQueueIndex index: Int, offsetFrames: Int) {
        pendingJump = Jump(queueIndex: index, offsetFrames: offsetFrames)
    }

    /// The resume that is due, once: a resume was asked for, the media has
    /// stopped and `stopFrameKnown` (the engine knows its stop frame). Playing from then on.
    public func takeResume(stopFrameKnown: Bool) -> Resume? {
        guard resumeWaitsForStop, case .stopped(let since) = phase, stopFrameKnown else { return nil }
        resumeWaitsForStop = false
        phase = .playing
        let heardNothing = nothingHeardYet
        nothingHeardYet = false
        if let jump = pendingJump {
            pendingJump = nil
            return .jump(jump)
        }
        return .stopFrame(stoppedFor: clock.monotonicNow - since, nothingHeardYet: heardNothing)
    }
}
