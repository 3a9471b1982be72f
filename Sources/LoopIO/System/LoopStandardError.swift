import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// Standard error as the player's main loop writes it (the headless progress
/// line, error lines): never waiting. A terminal whose output is stopped
/// (Ctrl-S) or a pipe nobody reads takes nothing, and a blocking write would
/// hold the loop, and an alarm with it, until someone reads. As in
/// `EventLineOutput`, a terminal or a pipe is written through a
/// `NonBlockingDescription` of it. (When stdin is the same terminal,
/// `StandardInputLines` makes that description non-blocking anyway; with
/// stdin elsewhere, fd 2 would block.) What does not fit now is not written,
/// and the caller is told.
package enum LoopStandardError {
    private static let fd: Int32 = NonBlockingDescription.kind(of: 2) == .pipeOrTerminal
        ? NonBlockingDescription.reopen(2) ?? 2 : 2

    /// Writes `text`, its control characters escaped (after "\r ESC[K" when
    /// `clearingLine`); false when the descriptor took less than all of it now.
    @discardableResult
    package static func write(_ text: String, clearingLine: Bool = false) -> Bool {
        var text = (clearingLine ? "\r\u{1B}[K" : "") + TerminalText.escaped(text)
        return text.withUTF8 { bytes in
            guard var base = bytes.baseAddress else { return true }
            var remaining = bytes.count
            while remaining > 0 {
                guard let written = try? SystemCall.retrying({ Glibc.write(fd, base, remaining) }), written > 0
                else { return false }
                remaining -= written
                base += written
            }
            return true
        }
    }
}
