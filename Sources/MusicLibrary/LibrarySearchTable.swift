/// Every track's folded words in memory, for the library pane's filter:
/// each word an id, its rank in the library's vocabulary sorted by UTF-8
/// bytes (as FTS5 and `SearchVocabulary` order them), so a prefix is a
/// range of ids and a track holds a term when one of its words in the
/// term's columns falls in that range. The tracks are in the index's order
/// (its ids ascending, the order a search without a sort gives).
///
/// A search reads the tracks in order until it has `limit` matches: about
/// 15 words a track, 100,000 tracks read whole in a millisecond or two,
/// where a selective prefix cost SQLite's full-text search tens of them.
/// `Search` narrows the last results when the query grows.
///
/// The third reading of `LibraryQuery`, beside `matches` (brute force) and
/// the full-text expression: built from the same folded words
/// (`SearchText`) as the index's full-text columns, so the three agree.
public struct LibrarySearchTable: Sendable {
    /// The bits of an entry that hold the word's id; the column is above them.
    static let idBits: UInt32 = 29
    static let idMask: UInt32 = (1 << idBits) - 1
    /// The most distinct words: ids are 29 bits.
    public static let maximumWords = Int(idMask)
    /// The most words of all tracks together; a library with more is
    /// searched by the index alone (`Builder.build` gives nil).
    public static let maximumEntries = Int(Int32.max)

    /// The distinct words sorted by UTF-8 bytes, packed.
    let wordBytes: [UInt8]
    /// Where each word starts in `wordBytes`; one more than there are words.
    let wordStarts: [Int32]
    /// Each track's words: column (its index in `LibraryQuery.Column.allCases`)
    /// above `idBits`, the word's id below; columns in that order, each
    /// column's words in its text's order.
    let entries: [UInt32]
    /// Where each track's entries start; one more than there are tracks.
    let trackStarts: [Int32]
    /// The index's id of each track.
    public let ids: [Int64]
    /// Each track's year, -1 for none (or one no year term can name: outside 0-9999).
    let years: [Int16]

    /// False for a table of the library's first tracks only (read first, to
    /// be there early): a search that finds fewer matches than it asked for
    /// in it may have missed some after its last track.
    public var isWhole = true

    public var count: Int { ids.count }
    public var wordCount: Int { wordStarts.count - 1 }

    /// Takes the tracks one at a time, in the index's order. Works on the
    /// texts' bytes as SQLite hands them over: no String per column or word,
    /// words interned in a hash table of their own (FNV-1a over the bytes,
    /// open addressing), and a column whose text is the one the track before
    /// had (an album's artist, album, genre) copied from it unread. 100,000
    /// tracks in about a tenth of the time Strings in a Dictionary took.
    public struct Builder {
        /// The distinct words' bytes, in the order first met.
        private var arena: [UInt8] = []
        /// Where each word starts in `arena`; one more than there are words.
        private var arenaStarts: [Int32] = [0]
        /// Word numbers + 1 by hash (0: empty); its count a power of two.
        private var slots: [Int32] = Array(repeating: 0, count: 1 << 12)
        private var entries: [UInt32] = []
        private var trackStarts: [Int32] = [0]
        private var ids: [Int64] = []
        private var years: [Int16] = []
        /// Each column's text of the track before, and where its entries are.
        private var previousText: [[UInt8]] = Array(repeating: [], count: LibraryQuery.Column.allCases.count)
        private var previousEntries: [Range<Int>] = Array(repeating: 0..<0, count: LibraryQuery.Column.allCases.count)
        private var overflowed = false

        public init(expectedTracks: Int = 0) {
            let expected = max(0, min(expectedTracks, 10_000_000))
            ids.reserveCapacity(expected)
            years.reserveCapacity(expected)
            trackStarts.reserveCapacity(expected + 1)
            entries.reserveCapacity(expected * 16)
        }

        /// `columns`: the track's text of each column in
        /// `LibraryQuery.Column.allCases`' order, folded words joined by spaces
        /// (`SearchText.indexed`, what the index's full-text table holds);
        /// missing ones count as empty.
        public mutating func add(id: Int64, year: Int?, columns: [String]) {
            for column in 0..<LibraryQuery.Column.allCases.count {
                var text = column < columns.count ? columns[column] : ""
                text.withUTF8 { add(column: column, text: $0) }
            }
            finishTrack(id: id, year: year)
        }

        /// One column of the track being added (by its index in
        /// `LibraryQuery.Column.allCases`), as `add(id:year:columns:)` takes
        /// them, in UTF-8; then `finishTrack`.
        public mutating func add(column: Int, text: UnsafeBufferPointer<UInt8>) {
            guard !overflowed, column >= 0, column < previousText.count else { return }
            let start = entries.count
            let same = previousText[column].withUnsafeBufferPointer { $0.elementsEqual(text) }
            if same {
                let earlier = previousEntries[column]
                for index in earlier { entries.append(entries[index]) }
            } else {
                var wordStart = 0
                for index in 0...text.count where index == text.count || text[index] == 0x20 {
                    if index > wordStart {
                        guard let number = intern(UnsafeBufferPointer(rebasing: text[wordStart..<index])) else {
                            overflowed = true
                            return
                        }
                        entries.append(UInt32(column) << LibrarySearchTable.idBits | number)
                    }
                    wordStart = index + 1
                }
                // In place: no new array per column and track.
                previousText[column].removeAll(keepingCapacity: true)
                previousText[column].append(contentsOf: text)
            }
            previousEntries[column] = start..<entries.count
        }

        /// Ends the track whose columns were added.
        public mutating func finishTrack(id: Int64, year: Int?) {
            guard !overflowed else { return }
            guard entries.count <= LibrarySearchTable.maximumEntries else { overflowed = true; return }
            trackStarts.append(Int32(entries.count))
            ids.append(id)
            years.append(year.flatMap { (0...9999).contains($0) ? Int16($0) : nil } ?? -1)
        }

        private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return hash
        }

        /// The word's number, given it one if it is new; nil past the limits.
        private mutating func intern(_ word: UnsafeBufferPointer<UInt8>) -> UInt32? {
            let wordCount = arenaStarts.count - 1
            if wordCount * 2 >= slots.count { grow() }
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: Self.hash(word)) & mask
            let found: Int? = arena.withUnsafeBufferPointer { arena in
                arenaStarts.withUnsafeBufferPointer { starts in
                    slots.withUnsafeBufferPointer { slots in
                        while true {
                            let stored = Int(slots[slot])
                            if stored == 0 { return nil }
                            let start = Int(starts[stored - 1]), end = Int(starts[stored])
                            if end - start == word.count && UnsafeBufferPointer(rebasing: arena[start..<end]).elementsEqual(word) {
                                return stored - 1
                            }
                            slot = (slot + 1) & mask
                        }
                    }
                }
            }
            if let found { return UInt32(found) }
            guard wordCount < LibrarySearchTable.maximumWords, arena.count + word.count <= Int(Int32.max) else { return nil }
            arena.append(contentsOf: word)
            arenaStarts.append(Int32(arena.count))
            slots[slot] = Int32(wordCount + 1)
            return UInt32(wordCount)
        }

        private mutating func grow() {
            var larger = [Int32](repeating: 0, count: slots.count * 2)
            let mask = larger.count - 1
            for number in 0..<(arenaStarts.count - 1) {
                let start = Int(arenaStarts[number]), end = Int(arenaStarts[number + 1])
                var slot = arena.withUnsafeBufferPointer { Int(truncatingIfNeeded: Self.hash(UnsafeBufferPointer(rebasing: $0[start..<end]))) } & mask
                while larger[slot] != 0 { slot = (slot + 1) & mask }
                larger[slot] = Int32(number + 1)
            }
            slots = larger
        }

        /// The table, its words renumbered by their byte order (in place: the
        /// builder is spent); nil when the library outgrew the table's numbers.
        public mutating func build() -> LibrarySearchTable? {
            guard !overflowed else { return nil }
            slots = []
            let wordCount = arenaStarts.count - 1
            // By bytes, as `SearchVocabulary.precedes` orders them.
            let order = arena.withUnsafeBufferPointer { arena in
                arenaStarts.withUnsafeBufferPointer { starts in
                    (0..<wordCount).sorted { a, b in
                        arena[Int(starts[a])..<Int(starts[a + 1])].lexicographicallyPrecedes(arena[Int(starts[b])..<Int(starts[b + 1])])
                    }
                }
            }
            var rank = [UInt32](repeating: 0, count: wordCount)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(arena.count)
            var starts: [Int32] = [0]
            starts.reserveCapacity(wordCount + 1)
            for (position, number) in order.enumerated() {
                rank[number] = UInt32(position)
                bytes += arena[Int(arenaStarts[number])..<Int(arenaStarts[number + 1])]
                starts.append(Int32(bytes.count))
            }
            arena = []
            for index in entries.indices {
                let entry = entries[index]
                entries[index] = entry & ~LibrarySearchTable.idMask | rank[Int(entry & LibrarySearchTable.idMask)]
            }
            let table = LibrarySearchTable(wordBytes: bytes, wordStarts: starts, entries: entries, trackStarts: trackStarts,
                                           ids: ids, years: years)
            entries = []
            return table
        }
    }

    /// A table of `tracks`' own texts (`LibraryQuery.Column.text(of:)`), folded
    /// here; ids are the tracks' positions. For tests and callers with rows in
    /// memory; nil past the table's limits.
    public init?(tracks: [LibraryTrack]) {
        var builder = Builder(expectedTracks: tracks.count)
        for (position, track) in tracks.enumerated() {
            builder.add(id: Int64(position), year: track.year,
                        columns: LibraryQuery.Column.allCases.map { SearchText.indexed($0.text(of: track)) })
        }
        guard let table = builder.build() else { return nil }
        self = table
    }

    init(wordBytes: [UInt8], wordStarts: [Int32], entries: [UInt32], trackStarts: [Int32], ids: [Int64], years: [Int16]) {
        self.wordBytes = wordBytes
        self.wordStarts = wordStarts
        self.entries = entries
        self.trackStarts = trackStarts
        self.ids = ids
        self.years = years
    }

    // MARK: Queries

    /// A query turned into id ranges and id runs of this table's words.
    struct Compiled {
        /// A word in the columns whose id is in `low..<(low + count)`.
        struct Prefix {
            /// Bit n: column n of `LibraryQuery.Column.allCases`.
            let columns: UInt32
            let low: UInt32
            let count: UInt32
        }

        /// These words one after another in one of the columns.
        struct Run {
            let columns: UInt32
            let words: [UInt32]
        }

        /// The narrowest first: a track fails on its first missing term.
        var prefixes: [Prefix] = []
        var runs: [Run] = []
        var years: [ClosedRange<Int16>] = []
        /// A term no word of the table can hold, or a year none can have: no track matches.
        var matchesNothing = false
    }

    func compile(_ query: LibraryQuery) -> Compiled {
        var compiled = Compiled()
        for range in query.years {
            // Stored years are 0-9999 (none: -1), so a range is clamped to those.
            let low = max(0, range.lowerBound), high = min(9999, range.upperBound)
            guard low <= high else { return Compiled(matchesNothing: true) }
            compiled.years.append(Int16(low)...Int16(high))
        }
        for term in query.terms {
            var columns: UInt32 = 0
            for column in term.columns {
                columns |= 1 << UInt32(LibraryQuery.Column.allCases.firstIndex(of: column) ?? 0)
            }
            switch term.condition {
            case .prefix(let prefix):
                let range = wordRange(prefix: Array(prefix.utf8))
                if range.isEmpty { return Compiled(matchesNothing: true) }
                compiled.prefixes.append(.init(columns: columns, low: range.lowerBound, count: UInt32(range.count)))
            case .run(let run):
                var words: [UInt32] = []
                for text in run {
                    let bytes = Array(text.utf8)
                    let range = wordRange(prefix: bytes)
                    // The word itself sorts first among those it begins.
                    guard !range.isEmpty, word(Int(range.lowerBound), equals: bytes) else { return Compiled(matchesNothing: true) }
                    words.append(range.lowerBound)
                }
                if !words.isEmpty { compiled.runs.append(.init(columns: columns, words: words)) }
            }
        }
        compiled.prefixes.sort { $0.count < $1.count }
        return compiled
    }

    /// The ids of the words that begin with `prefix`, byte for byte.
    func wordRange(prefix: [UInt8]) -> Range<UInt32> {
        // Sorted by bytes: the words before the prefix, those it begins, the rest.
        var low = 0, high = wordCount
        while low < high {
            let middle = (low + high) / 2
            if compare(word: middle, prefix) < 0 { low = middle + 1 } else { high = middle }
        }
        let first = low
        high = wordCount
        while low < high {
            let middle = (low + high) / 2
            if word(middle, startsWith: prefix) { low = middle + 1 } else { high = middle }
        }
        return UInt32(first)..<UInt32(low)
    }

    private func compare(word index: Int, _ bytes: [UInt8]) -> Int {
        let start = Int(wordStarts[index]), end = Int(wordStarts[index + 1])
        var position = 0
        for offset in start..<end {
            guard position < bytes.count else { return 1 }
            let byte = wordBytes[offset]
            if byte != bytes[position] { return byte < bytes[position] ? -1 : 1 }
            position += 1
        }
        return position < bytes.count ? -1 : 0
    }

    private func word(_ index: Int, startsWith prefix: [UInt8]) -> Bool {
        let start = Int(wordStarts[index]), end = Int(wordStarts[index + 1])
        guard end - start >= prefix.count else { return false }
        for offset in 0..<prefix.count where wordBytes[start + offset] != prefix[offset] { return false }
        return true
    }

    private func word(_ index: Int, equals bytes: [UInt8]) -> Bool {
        Int(wordStarts[index + 1] - wordStarts[index]) == bytes.count && word(index, startsWith: bytes)
    }

    /// The word of an id, for tests.
    func word(_ index: Int) -> String {
        String(decoding: wordBytes[Int(wordStarts[index])..<Int(wordStarts[index + 1])], as: UTF8.self)
    }

    /// Appends to `found` the positions of the tracks from `start` on that
    /// match, until `found` holds `limit`; gives back where it stopped (the
    /// position after the last track read: `count` when it read to the end).
    func scan(_ query: Compiled, from start: Int, limit: Int, into found: inout [Int32]) -> Int {
        guard !query.matchesNothing else { return count }
        var position = max(0, start)
        guard found.count < limit else { return position }
        let count = self.count
        entries.withUnsafeBufferPointer { entries in
            trackStarts.withUnsafeBufferPointer { starts in
                years.withUnsafeBufferPointer { years in
                    query.prefixes.withUnsafeBufferPointer { prefixes in
                        while position < count {
                            let words = UnsafeBufferPointer(rebasing: entries[Int(starts[position])..<Int(starts[position + 1])])
                            let matched = Self.matches(query, prefixes: prefixes, year: years[position], words: words)
                            if matched { found.append(Int32(position)) }
                            position += 1
                            if matched && found.count >= limit { break }
                        }
                    }
                }
            }
        }
        return position
    }

    func matches(_ query: Compiled, position: Int) -> Bool {
        guard !query.matchesNothing, position >= 0, position < count else { return false }
        return entries.withUnsafeBufferPointer { entries in
            query.prefixes.withUnsafeBufferPointer { prefixes in
                Self.matches(query, prefixes: prefixes, year: years[position],
                             words: UnsafeBufferPointer(rebasing: entries[Int(trackStarts[position])..<Int(trackStarts[position + 1])]))
            }
        }
    }

    /// The inner loop of a search: about 20 words a track, read for each
    /// prefix until one is in its range and columns (one subtraction and one
    /// comparison a word: an id below the range wraps around, above it).
    @inline(__always)
    private static func matches(_ query: Compiled, prefixes: UnsafeBufferPointer<Compiled.Prefix>, year: Int16,
                                words: UnsafeBufferPointer<UInt32>) -> Bool {
        for range in query.years where !range.contains(year) { return false }
        for term in prefixes {
            var held = false
            for entry in words where (entry & idMask) &- term.low < term.count && (term.columns >> (entry >> idBits)) & 1 != 0 {
                held = true
                break
            }
            if !held { return false }
        }
        for run in query.runs where !holds(run.words, columns: run.columns, in: words) { return false }
        return true
    }

    private static func holds(_ run: [UInt32], columns: UInt32, in words: UnsafeBufferPointer<UInt32>) -> Bool {
        guard !run.isEmpty, words.count >= run.count else { return false }
        for start in 0...(words.count - run.count) {
            let column = words[start] >> idBits
            guard (columns >> column) & 1 != 0 else { continue }
            var offset = 0
            while offset < run.count && words[start + offset] == column << idBits | run[offset] { offset += 1 }
            if offset == run.count { return true }
        }
        return false
    }
}
