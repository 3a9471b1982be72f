/// How long to wait before the next attempt to reach the sound server: half a
/// second after the first failure, doubling to at most 30 s, and back to the
/// start once connected. A server that is gone for an hour costs about 130
/// connection attempts (each a failed `connect` on a Unix socket), never a busy loop.
package struct ReconnectBackoff: Equatable {
    package static let firstDelayMilliseconds = 500
    package static let longestDelayMilliseconds = 30_000

    package private(set) var nextDelayMilliseconds = firstDelayMilliseconds

    package init() {}

    /// The delay before the attempt after this failure; the one after waits twice as long.
    package mutating func failed() -> Int {
        let delay = nextDelayMilliseconds
        nextDelayMilliseconds = min(nextDelayMilliseconds * 2, Self.longestDelayMilliseconds)
        return delay
    }

    package mutating func connected() { nextDelayMilliseconds = Self.firstDelayMilliseconds }
}
