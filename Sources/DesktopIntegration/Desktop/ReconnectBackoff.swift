/// How long to wait before the next attempt to reach a peer that failed: the
/// first delay after the first failure, doubling to at most the longest, and
/// back to the start once reached. The sound server's (half a second to 30 s):
/// one gone for an hour costs about 130 connection attempts (each a failed
/// `connect` on a Unix socket), never a busy loop. The user manager's wake
/// timer (`WakeTimer.retry`): a second to a minute.
package struct ReconnectBackoff: Equatable {
    package static let firstDelayMilliseconds = 500
    package static let longestDelayMilliseconds = 30_000

    package let firstDelayMilliseconds: Int
    package let longestDelayMilliseconds: Int
    package private(set) var nextDelayMilliseconds: Int

    package init(firstDelayMilliseconds: Int = Self.firstDelayMilliseconds,
                 longestDelayMilliseconds: Int = Self.longestDelayMilliseconds) {
        self.firstDelayMilliseconds = max(1, firstDelayMilliseconds)
        self.longestDelayMilliseconds = max(self.firstDelayMilliseconds, longestDelayMilliseconds)
        nextDelayMilliseconds = self.firstDelayMilliseconds
    }

    /// The delay before the attempt after this failure; the one after waits twice as long.
    package mutating func failed() -> Int {
        let delay = nextDelayMilliseconds
        nextDelayMilliseconds = min(nextDelayMilliseconds * 2, longestDelayMilliseconds)
        return delay
    }

    package mutating func connected() { nextDelayMilliseconds = firstDelayMilliseconds }
}
