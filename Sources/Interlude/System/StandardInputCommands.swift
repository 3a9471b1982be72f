#if canImport(Glibc)
import Glibc
#endif

/// Commands typed (or piped) on standard input while `interlude play` runs
/// headless, one per line: play, pause, toggle, dismiss, snooze, quit, and
/// for books next-chapter, prev-chapter, skip-back, skip-forward.
final class StandardInputCommands {
    enum Command: String, CaseIterable {
        case play, pause, toggle, dismiss, snooze, quit
        // Books.
        case nextChapter = "next-chapter", previousChapter = "prev-chapter"
        case skipBack = "skip-back", skipForward = "skip-forward"
    }

    private(set) var isOpen: Bool
    private var pending: [UInt8] = []
    private let originalFlags: Int32

    init() {
        // Non-blocking, so a partial line never stalls the loop.
        originalFlags = fcntl(0, F_GETFL)
        isOpen = originalFlags >= 0 && fcntl(0, F_SETFL, originalFlags | O_NONBLOCK) >= 0
    }

    deinit {
        // The descriptor is shared with the shell when stdin is a terminal.
        if originalFlags >= 0 { _ = fcntl(0, F_SETFL, originalFlags) }
    }

    /// Reads what is available and returns complete commands; unknown words are
    /// returned as `nil` entries with the word, for a one-line complaint.
    func take() -> [(Command?, String)] {
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = read(0, &buffer, buffer.count)
            if count > 0 { pending += buffer[0..<count]; continue }
            if count == 0 { isOpen = false }
            break
        }
        var commands: [(Command?, String)] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let word = String(decoding: pending[..<newline], as: UTF8.self)
                .split(separator: " ").first.map(String.init) ?? ""
            pending.removeSubrange(...newline)
            if word.isEmpty { continue }
            commands.append((Command(rawValue: word.lowercased()), word))
        }
        return commands
    }
}
