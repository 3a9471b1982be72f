import FuzzDriver

/// libFuzzer over the ID3v2 chapter parser (`make fuzz`); in a plain build a
/// replayer of saved inputs (`ChapterFuzzer crash-file...`).
@main
enum ChapterFuzzerMain {
    static func main() {
        FuzzDriver.run(name: "ChapterFuzzer", replaying: CommandLine.arguments.dropFirst(),
                       testOneInput: { data, size in fuzzOneInput(data, size) }, replay: exerciseParser)
    }
}
