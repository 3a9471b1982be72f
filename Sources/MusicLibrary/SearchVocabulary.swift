/// Every word the index's full-text table holds, in SQLite's order (by
/// their UTF-8 bytes), so a prefix of three letters or more can be searched
/// as the few whole words it begins: FTS5 reads a prefix it has no prefix
/// index for (it keeps them for one and two letters) by merging the matches
/// of every word it begins, all of them, before the first row; `"song"*` at
/// 100,000 tracks was 15 ms of a key, `("song" OR "songs")` under 1 ms,
/// since an OR of words is read lazily and stops at the search's limit.
public struct SearchVocabulary: Equatable, Sendable {
    /// Sorted by UTF-8 bytes, each once.
    public let words: [String]

    /// `words` in any order, with repeats; sorted here unless they come sorted.
    public init(words: [String]) {
        var sorted = true
        for index in words.indices.dropFirst() where !Self.precedes(words[index - 1], words[index]) {
            sorted = false
            break
        }
        if sorted {
            self.words = words
        } else {
            var ordered = words.sorted(by: Self.precedes)
            // Repeats sit side by side once sorted.
            var kept: [String] = []
            kept.reserveCapacity(ordered.count)
            for word in ordered where kept.last.map({ !Self.sameBytes($0, word) }) ?? true { kept.append(word) }
            ordered = kept
            self.words = ordered
        }
    }

    /// The words that begin with `prefix` (byte for byte, as FTS5 compares),
    /// in order; nil when there are more than `limit`.
    public func words(withPrefix prefix: String, limit: Int) -> [String]? {
        let prefixBytes = Array(prefix.utf8)
        // The first word not before the prefix.
        var low = 0, high = words.count
        while low < high {
            let middle = (low + high) / 2
            if Self.compare(words[middle], prefixBytes) < 0 { low = middle + 1 } else { high = middle }
        }
        var found: [String] = []
        var index = low
        while index < words.count, words[index].utf8.starts(with: prefixBytes) {
            if found.count == limit { return nil }
            found.append(words[index])
            index += 1
        }
        return found
    }

    /// a before b by their UTF-8 bytes (Swift's `<` on Strings compares
    /// them normalized; SQLite, byte by byte).
    static func precedes(_ a: String, _ b: String) -> Bool { compare(a, Array(b.utf8)) < 0 }

    static func sameBytes(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

    private static func compare(_ a: String, _ b: [UInt8]) -> Int {
        var index = 0
        for byte in a.utf8 {
            guard index < b.count else { return 1 }
            if byte != b[index] { return byte < b[index] ? -1 : 1 }
            index += 1
        }
        return index < b.count ? -1 : 0
    }
}
