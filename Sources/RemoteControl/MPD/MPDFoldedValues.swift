#if canImport(Glibc)
import Glibc
#endif

/// `search TAG VALUE` over a library's values of one tag: which tracks have
/// a value that contains the searched one in any case, exactly as
/// `value.lowercased().contains(needle)` says with a lowercased `needle` (a
/// Character-by-Character search, canonically equivalent Characters alike),
/// in a fraction of its time. That search, and lowercasing each value
/// anew, cost twice MPD's whole answer over 100,000 tracks.
///
/// The values are lowercased once, here, into one buffer, each followed by
/// 0xFF, a byte UTF-8 never holds, so a match of a needle can never span two
/// values. Where both the value and the needle are in NFC, as tags and
/// typed words nearly always are, canonically equivalent Characters are the
/// same bytes: a Character match is a byte match whose two ends are
/// boundaries of the value's Characters, and such a byte match is a
/// Character match. So the buffer is searched by bytes (`memchr`, `memcmp`), a value of
/// ASCII alone (every byte its own Character, but CR before LF) is matched
/// by its bytes, any other has the ends checked, and only a value or a
/// needle not in NFC is searched Character by Character.
package struct MPDFoldedValues: Sendable {
    /// How a value's byte matches are read.
    private enum Kind: UInt8 {
        /// ASCII without CR: every byte is a Character.
        case bytes
        /// In NFC, with Characters of more than one byte: a byte match counts where it ends on their boundaries.
        case boundaries
        /// Not in NFC: searched as Characters.
        case characters
    }

    /// The lowercased values, track after track, each followed by 0xFF.
    private var buffer: [UInt8] = []
    /// Where each value starts in `buffer` (32 bits: a library's text is far from 4 GB, and the index is a third smaller).
    private var starts: [UInt32] = []
    private var kinds: [Kind] = []
    /// The track of each value.
    private var tracks: [Int32] = []
    /// Track i's values are `firstValue[i]..<firstValue[i + 1]`.
    private var firstValue: [UInt32] = [0]
    /// The values of kind `characters`.
    private var unnormalized: [Int] = []

    /// `values(i)`: track i's values of the tag, for each of `count` tracks.
    package init(count: Int, values: (Int) -> [String]) {
        firstValue.reserveCapacity(count + 1)
        for track in 0..<count {
            for value in values(track) {
                let folded = value.lowercased()
                starts.append(UInt32(truncatingIfNeeded: buffer.count))
                buffer += folded.utf8
                buffer.append(0xFF)
                tracks.append(Int32(truncatingIfNeeded: track))
                let kind: Kind = if !Self.isNFC(folded) {
                    .characters
                } else if folded.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
                    .bytes
                } else {
                    .boundaries
                }
                if kind == .characters { unnormalized.append(kinds.count) }
                kinds.append(kind)
            }
            firstValue.append(UInt32(truncatingIfNeeded: starts.count))
        }
    }

    package var count: Int { firstValue.count - 1 }

    /// Which tracks have a value that contains `needle` (lowercased already, as a search's value is).
    package func matches(lowercased needle: String) -> [Bool] {
        var found = [Bool](repeating: false, count: count)
        guard Self.isNFC(needle) else {
            for value in kinds.indices where !found[Int(tracks[value])] && Self.containsCharacters(string(value), needle) {
                found[Int(tracks[value])] = true
            }
            return found
        }
        let pattern = Array(needle.utf8)
        buffer.withUnsafeBytes { haystack in
            pattern.withUnsafeBytes { pattern in
                var from = 0
                while let start = Self.find(pattern, in: haystack, from: from) {
                    let value = Self.lastIndex(in: starts, atMost: start)
                    let track = Int(tracks[value])
                    let matched = switch kinds[value] {
                    case .bytes: true
                    case .boundaries: endsOnBoundaries(value, from: start - Int(starts[value]), count: pattern.count)
                    // Searched below, as Characters.
                    case .characters: false
                    }
                    if matched {
                        found[track] = true
                        // The track's other values need no search.
                        let next = Int(firstValue[track + 1])
                        from = next < starts.count ? Int(starts[next]) : haystack.count
                    } else {
                        from = start + 1
                    }
                    // An empty needle is found at each value's start: the next value's is further on.
                    if pattern.count == 0 && !matched { from = value + 1 < starts.count ? Int(starts[value + 1]) : haystack.count }
                }
            }
        }
        for value in unnormalized where !found[Int(tracks[value])] && Self.containsCharacters(string(value), needle) {
            found[Int(tracks[value])] = true
        }
        return found
    }

    /// Where `pattern` is next in `haystack` at or after `from` (`memmem`'s
    /// answer: Glibc's module leaves it out): the first byte by `memchr`, the rest by `memcmp`.
    private static func find(_ pattern: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = haystack.baseAddress, from < haystack.count, from + pattern.count <= haystack.count else { return nil }
        guard let first = pattern.first, let needle = pattern.baseAddress else { return from }
        var from = from
        let last = haystack.count - pattern.count
        while from <= last, let hit = memchr(base + from, Int32(first), last + 1 - from) {
            let start = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + start, needle, pattern.count) == 0 { return start }
            from = start + 1
        }
        return nil
    }

    /// `search`'s match as it was before this buffer, and still is for text
    /// not in NFC: the standard library's Character-by-Character `contains`
    /// (in a module that imports Foundation, `contains` is Foundation's, which
    /// compares UTF-16 units and finds a flag inside a pair of flags).
    package static func containsCharacters(_ folded: String, _ needle: String) -> Bool { folded.contains(needle) }

    /// Whether the bytes `offset..<offset + count` of a value begin and end on its Characters' boundaries.
    private func endsOnBoundaries(_ value: Int, from offset: Int, count: Int) -> Bool {
        let text = string(value)
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: offset)
        let end = utf8.index(start, offsetBy: count)
        return start.samePosition(in: text) != nil && end.samePosition(in: text) != nil
    }

    /// A lowercased value as a string.
    private func string(_ value: Int) -> String {
        let end = value + 1 < starts.count ? Int(starts[value + 1]) - 1 : buffer.count - 1
        return String(decoding: buffer[Int(starts[value])..<end], as: UTF8.self)
    }

    /// The last index of sorted `values` whose element is at most `limit` (there is one: `values[0]` is 0).
    private static func lastIndex(in values: [UInt32], atMost limit: Int) -> Int {
        var low = 0, high = values.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if Int(values[middle]) <= limit { low = middle } else { high = middle - 1 }
        }
        return low
    }

    private static func isNFC(_ text: String) -> Bool {
        var span = text.utf8Span
        return span.checkForNFC(quickCheck: false)
    }
}
