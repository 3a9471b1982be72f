import InterludeCore

/// AVAudioSession's interruption notification (design.md §3.2), with the
/// interruption's id, cause and time added.
public struct InterruptionNotification: Sendable, Equatable {
    public enum Kind: Int, Sendable, Equatable {
        case ended = 0
        case began = 1
    }

    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Present on `ended` only; its absence means "do not resume until the user asks".
        public static let shouldResume = Options(rawValue: 1)
    }

    public enum Reason: Int, Sendable, Equatable {
        case `default` = 0
        case appWasSuspended = 1
        case routeDisconnected = 4
    }

    public let kind: Kind
    /// Empty on `began`.
    public let options: Options
    /// Present on `began` only.
    public let reason: Reason?
    /// True when the system deactivated the session because the process was
    /// suspended; set on the `began` and repeated on its `ended`.
    public let wasSuspended: Bool
    public let interruptionID: InterruptionID
    public let source: InterruptionSource
    /// The interrupting session's `label` (the program behind a desktop
    /// stream), when it has one.
    public let sourceLabel: String?
    public let time: MonotonicInstant

    public init(
        kind: Kind, options: Options, reason: Reason?, wasSuspended: Bool,
        interruptionID: InterruptionID, source: InterruptionSource, time: MonotonicInstant,
        sourceLabel: String? = nil
    ) {
        self.sourceLabel = sourceLabel
        self.kind = kind
        self.options = options
        self.reason = reason
        self.wasSuspended = wasSuspended
        self.interruptionID = interruptionID
        self.source = source
        self.time = time
    }
}

/// What caused an interruption or a duck.
public enum InterruptionSource: Sendable, Equatable {
    /// Another session became active.
    case session(SessionID, PriorityClass)
    /// The process was stopped (job control) or the machine slept.
    case suspension
    /// The output device went away.
    case outputDeviceLost

    /// The row of the policy table this source selects.
    public var interrupter: Interrupter {
        switch self {
        case .session(_, let priorityClass): .session(priorityClass)
        case .suspension: .suspension
        case .outputDeviceLost: .outputDeviceLost
        }
    }
}
