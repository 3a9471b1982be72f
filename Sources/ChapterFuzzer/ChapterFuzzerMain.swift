import FuzzDriver
import Glibc

/// libFuzzer over the ID3v2 chapter parser (`make fuzz`), or with
/// `INTERLUDE_FUZZ_TARGET=container` over the FLAC/Ogg/MP4 tag reader; in a
/// plain build a replayer of saved inputs (`ChapterFuzzer crash-file...`,
/// the same variable choosing the parser).
@main
enum ChapterFuzzerMain {
    static func main() {
        let name = getenv("INTERLUDE_FUZZ_TARGET").map { String(cString: $0) } ?? "chapters"
        switch name {
        case "chapters": selectedParser = exerciseParser
        case "container": selectedParser = exerciseContainerTags
        default:
            print("ChapterFuzzer: INTERLUDE_FUZZ_TARGET is chapters (the default) or container")
            exit(2)
        }
        FuzzDriver.run(name: "ChapterFuzzer \(name)", replaying: CommandLine.arguments.dropFirst(),
                       testOneInput: { data, size in fuzzOneInput(data, size) }, replay: selectedParser)
    }
}
