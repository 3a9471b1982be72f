import FuzzDriver

/// libFuzzer over the decoders: each input written to a file and decoded
/// whole through `Decoders.open`, the decoder chosen by
/// `INTERLUDE_FUZZ_TARGET` (mpg123, flac, ffmpeg). In a plain build it
/// replays saved inputs: `DecodeFuzzer TARGET FILE...`.
@main
enum DecodeFuzzerMain {
    static func main() {
        let (target, files) = FuzzDriver.target(FuzzTarget.self, name: "DecodeFuzzer")
        selectedTarget = target
        FuzzDriver.run(name: "DecodeFuzzer \(target.rawValue)", replaying: files,
                       testOneInput: { data, size in fuzzOneInput(data, size) }, replay: target.exercise)
    }
}
