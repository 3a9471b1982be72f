import FuzzDriver

/// libFuzzer over what a station sends before any audio is decoded: ICY
/// metadata (a block, and a whole interleaved stream split back), HLS timed ID3 titles and PLS
/// playlists with the entries they name, and a server's whole answer (its
/// headers) as the player's reader takes it. The parser is chosen by
/// `INTERLUDE_FUZZ_TARGET` (icy, pls, tags, headers); in a plain build it
/// replays saved inputs: `StreamFuzzer TARGET FILE...`.
@main
enum StreamFuzzerMain {
    static func main() {
        let (target, files) = FuzzDriver.target(FuzzTarget.self, name: "StreamFuzzer")
        selectedTarget = target
        FuzzDriver.run(name: "StreamFuzzer \(target.rawValue)", replaying: files,
                       testOneInput: { data, size in fuzzOneInput(data, size) }, replay: target.exercise)
    }
}
