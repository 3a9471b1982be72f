import FuzzDriver

/// libFuzzer over the files a user edits or the player keeps: themes, the
/// keys file, `alarms.json`, a book's state, M3U playlists and `player.json`.
/// One binary, the parser chosen by `INTERLUDE_FUZZ_TARGET` (theme, keys,
/// alarms, book, m3u, player): libFuzzer's driver owns the command line, and
/// its callback is a C function that can capture nothing. In a plain build
/// it replays saved inputs: `ConfigFuzzer TARGET FILE...`.
@main
enum ConfigFuzzerMain {
    static func main() {
        let (target, files) = FuzzDriver.target(FuzzTarget.self, name: "ConfigFuzzer")
        selectedTarget = target
        FuzzDriver.run(name: "ConfigFuzzer \(target.rawValue)", replaying: files,
                       testOneInput: { data, size in fuzzOneInput(data, size) }, replay: target.exercise)
    }
}
