/// A fixed-size message from the writer thread to the main thread, carried by
/// an `SPSCRing` of `MemoryLayout<EngineEvent>.stride`-byte slots. Plain
/// values only: the writer must not allocate or retain anything to send one.
public struct EngineEvent: Equatable, Sendable, BitwiseCopyable {
    public enum Kind: UInt32, Sendable {
        /// The device ran dry (xrun) and was recovered; `value` is the ALSA error.
        case underrun = 1
        /// The ring was empty while more audio was expected: silence was written.
        case starved = 2
        /// The device is gone or failed beyond recovery; `value` is the ALSA error
        /// (or `-errno` of a failed `poll`), `call` which call failed.
        case deviceLost = 3
        /// Everything was played out after the end of the stream.
        case drained = 4
        /// The output's server is not there (Snapcast: no snapserver reads the
        /// pipe); `value` is the errno. The writer plays on and tries again.
        case outputAway = 5
    }

    /// The writer's call that failed, for a `deviceLost`.
    public enum Call: UInt32, Sendable {
        case write = 0
        case poll = 1
    }

    public var kindRawValue: UInt32
    public var callRawValue: UInt32
    /// Media frames written when it happened.
    public var frame: Int64
    public var value: Int64

    @_noLocks
    init(kindRawValue: UInt32, frame: Int64, value: Int64, callRawValue: UInt32) {
        self.kindRawValue = kindRawValue
        self.callRawValue = callRawValue
        self.frame = frame
        self.value = value
    }

    public init(kind: Kind, frame: Int, value: Int = 0, call: Call = .write) {
        kindRawValue = kind.rawValue
        callRawValue = call.rawValue
        self.frame = Int64(frame)
        self.value = Int64(value)
    }

    public var call: Call? { Call(rawValue: callRawValue) }

    public var kind: Kind? { Kind(rawValue: kindRawValue) }

    static let slotBytes = MemoryLayout<EngineEvent>.stride
}
