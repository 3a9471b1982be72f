import FuzzDriver

/// libFuzzer over the cue-sheet parser (`make fuzz`); in a plain build a
/// replayer of saved inputs (`CueSheetFuzzer crash-file...`).
@main
enum CueSheetFuzzerMain {
    static func main() {
        FuzzDriver.run(name: "CueSheetFuzzer", replaying: CommandLine.arguments.dropFirst(),
                       testOneInput: { data, size in fuzzOneInput(data, size) }, replay: exerciseParser)
    }
}
