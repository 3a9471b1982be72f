/// A fixed-size message from the writer thread to the main thread, carried by
/// an `SPSCRing` of `MemoryLayout<EngineEvent>.stride`-byte slots. Plain
/// values only: the writer must not allocate or retain anything to send one.
public struct EngineEvent: Equatable, Sendable, BitwiseCopyable {
    public enum Kind: UInt32, Sendable {
        /// The device ran dry (xrun) and was recovered; `value` is the ALSA error.
        case underrun = 1
        /// The ring was empty while more audio was expected: silence was written.
        case starved = 2
        /// The device is gone or failed beyond recovery; `value` is the ALSA error.
        case deviceLost = 3
        /// Everything was played out after the end of the stream.
        case drained = 4
    }

    public var kindRawValue: UInt32
    /// Media frames written when it happened.
    public var frame: Int64
    public var value: Int64

    @_noLocks
    init(kindRawValue: UInt32, frame: Int64, value: Int64) {
        self.kindRawValue = kindRawValue
        self.frame = frame
        self.value = value
    }

    public init(kind: Kind, frame: Int, value: Int = 0) {
        kindRawValue = kind.rawValue
        self.frame = Int64(frame)
        self.value = Int64(value)
    }

    public var kind: Kind? { Kind(rawValue: kindRawValue) }

    static let slotBytes = MemoryLayout<EngineEvent>.stride
}
