/// Tells a report the terminal sends from a key the listener typed.
///
/// Terminals answer queries on the same input as the keys: DA1's
/// `ESC [ ? 62 ; 4 c`, a cell's size `ESC [ 6 ; 20 ; 10 t`, kitty's
/// `ESC _ G ... ESC \`, XTVERSION's `ESC P > | ... ESC \`. ncurses knows the
/// sequences of the keys it names; any other sequence it hands over as an
/// Escape and then its bytes, one key each. An answer that came after the
/// player stopped waiting for it (a loaded machine, a slow ssh link) was read
/// as keys: DA1's `c` took a call and its digits switched panes.
///
/// A report starts with ESC and an introducer in the same read: `[` (CSI,
/// parameters `0-?`, intermediates ` -/`, then a final byte `@-~`), or `]`
/// (OSC), `P` (DCS), `_` (APC), `^` (PM), `X` (SOS), each a string up to ST
/// (`ESC \`) or BEL. A listener's Escape arrives alone (ncurses waits 25 ms
/// for what follows) and Alt with a key as ESC and one character, which is
/// no introducer or, for Alt-[, never completes a sequence in the same read.
/// Fed the scalars after the ESC, one at a time.
public struct TerminalReport: Sendable {
    public enum Step: Equatable, Sendable {
        /// Part of a report: feed the next.
        case more
        /// The whole report, from its ESC to its last byte.
        case complete([UInt8])
        /// This scalar makes it no report: the bytes read are keys after all.
        case notAReport
    }

    private enum State: Sendable {
        case introducer
        case control
        case string
        case stringEscape
    }

    /// The report's bytes so far, from its ESC.
    public private(set) var bytes: [UInt8] = [0x1B]
    private var state = State.introducer

    /// A report longer than this is cut here and taken as whole (the rest, if
    /// any, is read on): no terminal's answer comes near it.
    public static let limit = 4096

    public init() {}

    /// Whether an introducer has been read: a report cut here by the end of
    /// a read may go on in the next one.
    public var hasIntroducer: Bool { state != .introducer }

    public mutating func feed(_ scalar: UInt32) -> Step {
        guard scalar < 0x80 else { return .notAReport }
        let byte = UInt8(scalar)
        switch state {
        case .introducer:
            switch byte {
            case 0x5B: state = .control
            case 0x5D, 0x50, 0x5F, 0x5E, 0x58: state = .string
            default: return .notAReport
            }
        case .control:
            switch byte {
            case 0x20...0x3F: break
            case 0x40...0x7E:
                bytes.append(byte)
                return .complete(bytes)
            default: return .notAReport
            }
        case .string:
            switch byte {
            case 0x07:
                bytes.append(byte)
                return .complete(bytes)
            case 0x1B: state = .stringEscape
            case 0x08...0x0D, 0x20...0x7E: break
            default: return .notAReport
            }
        case .stringEscape:
            guard byte == 0x5C else { return .notAReport }
            bytes.append(byte)
            return .complete(bytes)
        }
        bytes.append(byte)
        return bytes.count >= Self.limit ? .complete(bytes) : .more
    }
}
