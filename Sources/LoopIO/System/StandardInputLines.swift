#if canImport(Glibc)
import Glibc
#endif

/// Lines typed (or piped) on standard input while `interlude play` runs
/// headless: read without blocking, handed over one first word per line
/// (`StandardInputVocabulary` says what each stands for).
package final class StandardInputLines {
    package private(set) var isOpen: Bool
    private var pending: [UInt8] = []
    private let originalFlags: Int32

    package init() {
        // Non-blocking, so a partial line never stalls the loop.
        originalFlags = fcntl(0, F_GETFL)
        isOpen = originalFlags >= 0 && fcntl(0, F_SETFL, originalFlags | O_NONBLOCK) >= 0
    }

    deinit {
        // The descriptor is shared with the shell when stdin is a terminal.
        if originalFlags >= 0 { _ = fcntl(0, F_SETFL, originalFlags) }
    }

    /// Reads what is available and returns the first word of each complete line.
    package func take() -> [String] {
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = read(0, &buffer, buffer.count)
            if count > 0 { pending += buffer[0..<count]; continue }
            if count == 0 { isOpen = false }
            break
        }
        var words: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let word = String(decoding: pending[..<newline], as: UTF8.self)
                .split(separator: " ").first.map(String.init) ?? ""
            pending.removeSubrange(...newline)
            if !word.isEmpty { words.append(word) }
        }
        return words
    }
}
