import LibraryIO
import Podcasts

/// Each `feed` input is a feed's bytes, parsed whole. What entity
/// references expand to is bounded per document (4 MB), so nothing read
/// from the feed is longer than the input and that bound together;
/// libFuzzer's time and memory limits catch an expansion that is not.
enum FuzzTarget: String, CaseIterable {
    case feed

    func exercise(_ bytes: UnsafeBufferPointer<UInt8>) {
        let input = Array(bytes)
        let most = input.count + XMLReader.expansionLimit
        guard let feed = try? FeedDocument.parse(input, url: "https://feeds.example/show.xml") else { return }
        var total = feed.title.utf8.count &+ feed.description.utf8.count
        precondition(feed.title.utf8.count <= most && feed.description.utf8.count <= most, "a podcast's text past the bound")
        for episode in feed.episodes {
            for text in [episode.guid, episode.title, episode.description, episode.enclosure?.url ?? "", episode.link ?? ""] {
                precondition(text.utf8.count <= most, "an episode's field of \(text.utf8.count) bytes from \(input.count)")
                total &+= text.utf8.count
            }
        }
        precondition(total != Int.min)
    }
}

/// The target `INTERLUDE_FUZZ_TARGET` names; set once, before the driver starts.
nonisolated(unsafe) var selectedTarget = FuzzTarget.feed

/// libFuzzer's per-input callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // Sound: libFuzzer hands a buffer of exactly `size` bytes, or nil for 0.
    selectedTarget.exercise(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
