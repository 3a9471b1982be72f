import AudioDecoding
import InterludeCore

/// What `ConfigFuzzer player` fuzzes: `player.json` as the full-screen
/// player reads it at start-up, and the arithmetic a start does with what it
/// lets through (the position in frames at every rate a file may have, the
/// volume), then the state saved and read back.
@_spi(Fuzzing) public enum PlayerStateFuzzing {
    public static func exercise(_ bytes: [UInt8]) {
        guard let state = try? PlayerStateStore.decode(bytes) else { return }
        var total = state.queue.count &+ state.index
        for rate in [8000, 44_100, 48_000, 192_000] {
            total &+= AudioFormat(rate: rate, channels: 2).frames(forSeconds: state.seconds)
        }
        total &+= Int(state.volume * 100)
        let saved = Array(JSONWriter().prettyPrinted(PlayerStateStore.encode(state)).utf8)
        let again = try? PlayerStateStore.decode(saved)
        precondition(again == state, "a saved player state does not read back")
        precondition(total != Int.min)
    }
}
