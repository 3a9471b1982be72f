import InterludeCore
import Foundation
import Testing
@testable import BookFormat

/// Inside the normal suite: at least 100,000 valid tags, each damaged one to
/// three ways, never crash the parser, and each gives output bounded by its
/// input. How long a parse takes is `make fuzz`'s to bound (the chapter
/// fuzzer fails an input that takes over 5 s), not a test's: a wall-clock
/// bound here failed on a loaded machine (0.43 s for a parse of microseconds).
/// The seed is printed; set BOOKFORMAT_MUTATION_SEED to replay a failing run.
struct MutatedTagTests {
    static let shards = 4
    static let tagsPerShard = 25_000
    /// Valid tags made per shard and then damaged over and over: making a
    /// tag costs more than parsing it, and 500 already cover every writer
    /// option, version, encoding and table-of-contents shape many times.
    static let validTagsPerShard = 500

    static let seed: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["BOOKFORMAT_MUTATION_SEED"], let value = UInt64(text) {
            return value
        }
        return UInt64.random(in: 0...UInt64.max)
    }()

    /// Four shards so the suite's parallel runner spreads the work over
    /// both cores; each shard's seed derives from the printed one.
    @Test(arguments: 0..<shards)
    func mutatedTagsNeverCrashAndStayBounded(shard: Int) {
        let seed = Self.seed
        print("MutatedTagTests: seed \(seed) (BOOKFORMAT_MUTATION_SEED=\(seed) replays), shard \(shard)")
        var mutator = TagMutator(random: SeededGenerator(seed: seed &+ UInt64(shard) &* 0x9E37_79B9_7F4A_7C15))
        let valid = (0..<Self.validTagsPerShard).map { _ in mutator.validTag() }
        var withChapters = 0
        for iteration in 0..<Self.tagsPerShard {
            let bytes = mutator.mutate(valid[iteration % valid.count])
            let list = ChapterList(tagBytes: bytes[...])
            if !list.chapters.isEmpty { withChapters += 1 }

            // A chapter needs a CHAP frame of at least 27 bytes, and no text
            // can decode to more than three UTF-8 bytes per input byte.
            let context = "seed \(seed) shard \(shard) iteration \(iteration), \(bytes.count) bytes"
            if list.chapters.count > bytes.count / 27 {
                Issue.record("\(list.chapters.count) chapters from \(context)")
                return
            }
            if let title = list.chapters.first(where: { $0.title.utf8.count > 3 * bytes.count + 16 }) {
                Issue.record("title of \(title.title.utf8.count) bytes from \(context)")
                return
            }
        }
        // The mutations must leave many tags readable, or the test would only
        // exercise the header check.
        #expect(withChapters > Self.tagsPerShard / 10, "only \(withChapters) mutated tags kept chapters, seed \(seed)")
    }
}
