/// The order MPD 0.23 keeps its database in, which every listing and every
/// folder added follows: a folder's songs first, sorted as its
/// `SongSort.cxx` sorts them (album, then disc, then track number, then
/// file name), then each folder in it, by name, each followed by what is in
/// it. Names are compared as `MPDCollation` compares them.
public enum MPDSongOrder {
    /// What the order reads of a song.
    public struct Key: Sendable {
        /// Below the music folder (`a/b/c.mp3`).
        public var path: String
        public var album: String?
        public var disc: Int?
        public var track: Int?

        public init(path: String, album: String?, disc: Int?, track: Int?) {
            self.path = path
            self.album = album
            self.disc = disc
            self.track = track
        }
    }

    /// The indices of `keys` in MPD's order.
    public static func walk(_ keys: [Key]) -> [Int] {
        var songs: [Substring: [Int]] = [:]
        var folders: [Substring: [Substring]] = [:]
        var known: Set<Substring> = [""]
        for (index, key) in keys.enumerated() {
            let folder = parent(key.path[...])
            songs[folder, default: []].append(index)
            // Each folder joins its parent's list once; the parents of one already known are known too.
            var child = folder
            while known.insert(child).inserted {
                let above = parent(child)
                folders[above, default: []].append(child)
                child = above
            }
        }
        var order: [Int] = []
        order.reserveCapacity(keys.count)
        func visit(_ folder: Substring) {
            order += (songs[folder] ?? []).sorted { precedes(keys[$0], keys[$1]) }
            for child in (folders[folder] ?? []).sorted(by: { MPDCollation.precedes(String($0), String($1)) }) { visit(child) }
        }
        visit("")
        return order
    }

    /// `song_cmp`: album (none first), disc, track (none or 0 first), then the file's name.
    public static func precedes(_ a: Key, _ b: Key) -> Bool {
        switch (a.album, b.album) {
        case (nil, .some): return true
        case (.some, nil): return false
        case (.some(let x), .some(let y)) where x != y:
            let order = MPDCollation.compare(x, y)
            if order != 0 { return order < 0 }
        default: break
        }
        for (x, y) in [(a.disc, b.disc), (a.track, b.track)] {
            let (first, second) = (max(0, x ?? 0), max(0, y ?? 0))
            if first != second { return first < second }
        }
        return MPDCollation.precedes(String(name(a.path[...])), String(name(b.path[...])))
    }

    /// The folder a path is in (`""` for the top).
    public static func parent(_ path: Substring) -> Substring {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return path[..<slash]
    }

    private static func name(_ path: Substring) -> Substring {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return path[path.index(after: slash)...]
    }
}

/// Names compared as MPD's `IcuCollate` (ICU's root collation) compares
/// them, near enough for file names and tags: spaces, then punctuation and
/// symbols in ICU's order, then digits, then letters without regard to
/// case; only names equal so are told apart by case (lower first), then by
/// their bytes. Accents and scripts beyond ASCII are compared by code point.
public enum MPDCollation {
    /// ICU's root order of ASCII punctuation and symbols (CLDR's).
    private static let punctuation = Array("_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$".unicodeScalars)

    public static func precedes(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }

    /// Negative, zero or positive as `a` sorts before, with or after `b`.
    public static func compare(_ a: String, _ b: String) -> Int {
        var left = a.unicodeScalars.makeIterator(), right = b.unicodeScalars.makeIterator()
        var caseOrder = 0
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil):
                if caseOrder != 0 { return caseOrder }
                return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : (a.utf8.elementsEqual(b.utf8) ? 0 : 1)
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?):
                let (first, second) = (weight(x), weight(y))
                if first != second { return first < second ? -1 : 1 }
                if caseOrder == 0, x != y {
                    // Lower case first, as ICU's tertiary strength has it.
                    caseOrder = x.properties.isLowercase ? -1 : (y.properties.isLowercase ? 1 : 0)
                }
            }
        }
    }

    /// The primary weight: group, then place in the group.
    private static func weight(_ scalar: Unicode.Scalar) -> UInt64 {
        let value = scalar.value
        if scalar.properties.isWhitespace { return UInt64(value) }
        if value < 0x80 {
            if let place = punctuation.firstIndex(of: scalar) { return 1 << 32 | UInt64(place) }
            if (0x30...0x39).contains(value) { return 2 << 32 | UInt64(value) }
            if (0x41...0x5A).contains(value) { return 3 << 32 | UInt64(value + 0x20) }
            if (0x61...0x7A).contains(value) { return 3 << 32 | UInt64(value) }
            return 1 << 32 | UInt64(punctuation.count) + UInt64(value)
        }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars.first?.value ?? value
        return 3 << 32 | UInt64(lower)
    }
}
