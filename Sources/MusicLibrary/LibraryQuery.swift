/// A search as typed: free words, matched as word prefixes across title,
/// artist, album and path (below the library folder) (a run of CJK characters as a substring), and
/// `field:value` terms (`artist:`, `album:`, `title:`, `genre:`, `path:`,
/// `year:`). Every term must hold. A value with spaces is quoted
/// (`artist:"daft punk"`). While a term is still being typed it does not
/// empty the list: `artist:` with no value yet is ignored, and `year:19`
/// means the years 1900-1999.
///
/// The same query has two readings that must agree: `matches` over a track
/// (the brute-force filter tests compare with) and `fullTextExpression`, the
/// FTS5 expression the index runs, plus `years` for its WHERE clause.
public struct LibraryQuery: Equatable, Sendable {
    /// The index's full-text columns, by their FTS5 names.
    public enum Column: String, CaseIterable, Sendable {
        case title, artist, album, albumartist, genre, path

        func text(of track: LibraryTrack) -> String? {
            switch self {
            case .title: track.title
            case .artist: track.artist
            case .album: track.album
            case .albumartist: track.albumArtist
            case .genre: track.genre
            case .path: track.relativePath
            }
        }
    }

    public enum Condition: Equatable, Sendable {
        /// A word of the column starts with this.
        case prefix(String)
        /// These words stand next to each other in the column (CJK characters).
        case run([String])
    }

    public struct Term: Equatable, Sendable {
        public let columns: [Column]
        public let condition: Condition
    }

    public static let freeColumns: [Column] = [.title, .artist, .album, .path]

    public private(set) var terms: [Term] = []
    /// Inclusive year ranges, all of which a track's year must be in.
    public private(set) var years: [ClosedRange<Int>] = []

    public var isEmpty: Bool { terms.isEmpty && years.isEmpty }

    public init(_ text: String) {
        for piece in Self.pieces(text) {
            if let colon = piece.firstIndex(of: ":"), colon != piece.startIndex {
                let name = piece[..<colon].lowercased()
                let value = Self.unquoted(piece[piece.index(after: colon)...])
                if let columns = Self.fieldColumns[name] {
                    add(words: value, columns: columns)
                    continue
                }
                if name == "year" {
                    if value.isEmpty { continue }
                    if let range = Self.yearRange(value) {
                        years.append(range)
                        continue
                    }
                }
            }
            add(words: Self.unquoted(piece[...]), columns: Self.freeColumns)
        }
    }

    static let fieldColumns: [String: [Column]] = [
        "title": [.title], "artist": [.artist, .albumartist], "album": [.album],
        "genre": [.genre], "path": [.path],
    ]

    private mutating func add(words text: String, columns: [Column]) {
        var run: [String] = []
        func flushRun() {
            if !run.isEmpty { terms.append(Term(columns: columns, condition: .run(run))) }
            run = []
        }
        for word in SearchText.words(text) {
            if word.isCJK {
                run.append(word.text)
            } else {
                flushRun()
                terms.append(Term(columns: columns, condition: .prefix(word.text)))
            }
        }
        flushRun()
    }

    /// "1999", "1990-1999", or a prefix of a year ("199": the 1990s).
    static func yearRange(_ text: String) -> ClosedRange<Int>? {
        func digits(_ part: Substring) -> Int? {
            guard !part.isEmpty, part.count <= 4, part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(part)
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 2, parts[0].count == 4, parts[1].count == 4, let low = digits(parts[0]), let high = digits(parts[1]) {
            return min(low, high)...max(low, high)
        }
        guard parts.count == 1, let value = digits(parts[0]) else { return nil }
        var scale = 1
        for _ in parts[0].count..<4 { scale *= 10 }
        return (value * scale)...(value * scale + scale - 1)
    }

    /// Terms split on spaces outside double quotes.
    static func pieces(_ text: String) -> [Substring] {
        var pieces: [Substring] = []
        var start: String.Index?
        var quoted = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { quoted.toggle() }
            if character.isWhitespace && !quoted {
                if let begin = start { pieces.append(text[begin..<index]) }
                start = nil
            } else if start == nil {
                start = index
            }
            index = text.index(after: index)
        }
        if let begin = start { pieces.append(text[begin...]) }
        return pieces
    }

    static func unquoted(_ text: Substring) -> String {
        String(text.filter { $0 != "\"" })
    }

    // MARK: The brute-force reading

    public func matches(_ track: LibraryTrack) -> Bool {
        for range in years {
            guard let year = track.year, range.contains(year) else { return false }
        }
        var words: [Column: [String]] = [:]
        func columnWords(_ column: Column) -> [String] {
            if let cached = words[column] { return cached }
            let computed = SearchText.words(column.text(of: track) ?? "").map(\.text)
            words[column] = computed
            return computed
        }
        for term in terms {
            let held = term.columns.contains { column in
                let list = columnWords(column)
                switch term.condition {
                case .prefix(let prefix):
                    return list.contains { $0.hasPrefix(prefix) }
                case .run(let run):
                    guard list.count >= run.count else { return false }
                    return (0...(list.count - run.count)).contains { Array(list[$0..<($0 + run.count)]) == run }
                }
            }
            if !held { return false }
        }
        return true
    }

    // MARK: The index's reading

    /// The FTS5 MATCH expression of the text terms; nil when there are none.
    /// Every word is quoted: the words are letters and digits only, so no
    /// quote can appear inside one, and FTS5's operators (AND, OR, NOT, NEAR)
    /// typed as words are searched for, not obeyed.
    public var fullTextExpression: String? {
        switch fullText(vocabulary: nil) {
        case .expression(let expression): expression
        case .none, .nothing: nil
        }
    }

    /// What the index runs for the text terms.
    public enum FullText: Equatable, Sendable {
        /// No text terms: only the years decide.
        case none
        case expression(String)
        /// A prefix that begins no word of the vocabulary: nothing matches.
        case nothing
    }

    /// The most words a prefix is searched as (an OR of them); one that
    /// begins more stays a prefix. FTS5 reads an OR's words side by side, a
    /// step of each at every row, so a long one costs each row found.
    public static let expansionLimit = 64

    /// The expression, with each prefix of three letters or more written as
    /// the words of `vocabulary` it begins (FTS5 keeps prefix indexes for one
    /// and two): the same rows, read lazily. `vocabulary` must hold every
    /// word of the index as it is now, or rows of a word it lacks are missed.
    public func fullText(vocabulary: SearchVocabulary?) -> FullText {
        guard !terms.isEmpty else { return .none }
        var parts: [String] = []
        for term in terms {
            let columns = "{" + term.columns.map(\.rawValue).joined(separator: " ") + "}"
            switch term.condition {
            case .prefix(let prefix):
                guard let vocabulary, prefix.unicodeScalars.count >= 3,
                      let words = vocabulary.words(withPrefix: prefix, limit: Self.expansionLimit) else {
                    parts.append("\(columns) : \"\(prefix)\"*")
                    continue
                }
                if words.isEmpty { return .nothing }
                // The vocabulary is read from the index's file: a quote in a word there is doubled, as FTS5 escapes it.
                parts.append("\(columns) : (" + words.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }
                    .joined(separator: " OR ") + ")")
            case .run(let run):
                parts.append("\(columns) : \"\(run.joined(separator: " "))\"")
            }
        }
        return .expression(parts.joined(separator: " AND "))
    }
}
