/// `command_list_begin` / `command_list_ok_begin` ... `command_list_end`, as
/// MPD's client reads them: inside a list every line but the end is kept,
/// unread, and the list runs whole at its end; the first command that fails
/// answers `ACK [code@index]` and the rest do not run.
public struct MPDCommandList: Sendable {
    public enum Line: Equatable, Sendable {
        /// Carry out this line now (no list is open).
        case single([UInt8])
        /// A list began or grew: nothing to answer yet.
        case collected
        /// The list ended: carry these out in order, `list_OK` after each when `okEach`.
        case run([[UInt8]], okEach: Bool)
        /// The list grew past MPD's limit: MPD closes the connection.
        case tooLong
    }

    /// MPD's `max_command_list_size` default: 2048 KiB.
    public static let maximumBytes = 2048 * 1024

    // Made once: an array made from the text for each comparison was two allocations for every line a client sent.
    private static let begin = Array("command_list_begin".utf8)
    private static let okBegin = Array("command_list_ok_begin".utf8)
    private static let end = Array("command_list_end".utf8)

    private var lines: [[UInt8]]?
    private var okEach = false
    private var bytes = 0

    public init() {}

    public var isOpen: Bool { lines != nil }

    public mutating func take(_ line: [UInt8]) -> Line {
        if lines != nil {
            if line == Self.end {
                defer { lines = nil }
                return .run(lines ?? [], okEach: okEach)
            }
            bytes += line.count + 1
            guard bytes <= Self.maximumBytes else {
                lines = nil
                return .tooLong
            }
            // In place: a copy of the list taken out and put back was a copy of every line before it.
            lines?.append(line)
            return .collected
        }
        if line == Self.begin || line == Self.okBegin {
            lines = []
            okEach = line.count == Self.okBegin.count
            bytes = 0
            return .collected
        }
        return .single(line)
    }
}
