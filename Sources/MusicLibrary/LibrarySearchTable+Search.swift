extension LibrarySearchTable {
    /// The table's searches as a filter is typed: a query that only narrows
    /// one searched a key or two before (a letter added to a word, a word or
    /// a year added) reads that search's matches again, not the tracks
    /// before where it stopped, and goes on reading only from there.
    public struct Search: Sendable {
        public let table: LibrarySearchTable
        /// Searches kept for narrowing: the query, the positions of every track
        /// before `scanned` that it matches, and where its read stopped.
        private var recent: [(query: LibraryQuery, matched: [Int32], scanned: Int)] = []
        /// A word typed and erased a letter at a time; each kept search holds at
        /// most its limit of positions.
        public static let capacity = 8
        /// How many tracks the last search looked at (kept matches checked
        /// again, and tracks read): what narrowing saves.
        public private(set) var tracksRead = 0

        public init(table: LibrarySearchTable) {
            self.table = table
        }

        /// The ids of the first `limit` tracks that match, in the table's order.
        public mutating func ids(matching query: LibraryQuery, limit: Int) -> [Int64] {
            positions(matching: query, limit: limit).map { table.ids[Int($0)] }
        }

        /// The positions of the first `limit` tracks that match.
        mutating func positions(matching query: LibraryQuery, limit: Int) -> [Int32] {
            tracksRead = 0
            guard limit > 0 else { return [] }
            let compiled = table.compile(query)
            var matched: [Int32] = []
            var start = 0
            // The most recent search this one narrows: its matches before
            // where it stopped hold every match of this one there.
            if let base = recent.lastIndex(where: { query.narrows($0.query) }) {
                let kept = recent[base]
                for position in kept.matched where matched.count < limit {
                    tracksRead += 1
                    if table.matches(compiled, position: Int(position)) { matched.append(position) }
                }
                // Stopped at the limit inside the old matches: read up to the last one kept.
                start = matched.count >= limit ? Int(matched[matched.count - 1]) + 1 : kept.scanned
            }
            let scanned = matched.count >= limit ? start : table.scan(compiled, from: start, limit: limit, into: &matched)
            tracksRead += scanned - start
            recent.removeAll { $0.query == query }
            if recent.count >= Self.capacity { recent.removeFirst() }
            recent.append((query, matched, scanned))
            return matched
        }
    }
}

extension LibraryQuery {
    /// Whether every track this query matches is sure to match `other` (a
    /// sufficient test, not a complete one): each of `other`'s terms is held
    /// by one of these terms (the same columns or fewer, a longer prefix, a
    /// run that contains it), and each of its year ranges holds one of these.
    public func narrows(_ other: LibraryQuery) -> Bool {
        for range in other.years where !years.contains(where: { range.contains($0.lowerBound) && range.contains($0.upperBound) }) {
            return false
        }
        return other.terms.allSatisfy { wanted in terms.contains { $0.implies(wanted) } }
    }
}

extension LibraryQuery.Term {
    func implies(_ other: LibraryQuery.Term) -> Bool {
        guard columns.allSatisfy({ other.columns.contains($0) }) else { return false }
        switch (condition, other.condition) {
        case let (.prefix(longer), .prefix(shorter)):
            return longer.utf8.starts(with: shorter.utf8)
        case let (.run(words), .run(part)):
            guard words.count >= part.count else { return false }
            return (0...(words.count - part.count)).contains { start in
                zip(words[start..<(start + part.count)], part).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
            }
        case let (.run(words), .prefix(prefix)):
            return words.contains { $0.utf8.starts(with: prefix.utf8) }
        case (.prefix, .run):
            return false
        }
    }
}
