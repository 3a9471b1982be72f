import FuzzDriver

/// libFuzzer over a podcast feed as `podcast add` reads one (`FeedDocument`:
/// libxml2's parser under podcastparser's rules), its DTD's entities and
/// their references in text and attributes among all. The target is chosen
/// by `INTERLUDE_FUZZ_TARGET` (feed); in a plain build it replays saved
/// inputs: `FeedFuzzer TARGET FILE...`.
@main
enum FeedFuzzerMain {
    static func main() {
        let (target, files) = FuzzDriver.target(FuzzTarget.self, name: "FeedFuzzer")
        selectedTarget = target
        FuzzDriver.run(name: "FeedFuzzer \(target.rawValue)", replaying: files,
                       testOneInput: { data, size in fuzzOneInput(data, size) }, replay: target.exercise)
    }
}
