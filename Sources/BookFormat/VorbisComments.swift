/// The fields of a Vorbis comment block (FLAC's, Ogg Vorbis's, Opus's):
/// "NAME=value" entries, names in any case, a name given several times
/// giving several values (artists, genres). Collected over one block, then
/// `finish` sets what needs the whole block (numbers with their totals,
/// chapters, ReplayGain).
struct VorbisComments {
    private var trackNumber: String?
    private var trackTotal: String?
    private var discNumber: String?
    private var discTotal: String?
    private var gains: [(name: String, value: String)] = []
    private var chapterStarts: [Int: Int] = [:]
    private var chapterTitles: [Int: String] = [:]

    /// A block: vendor string, then `count` entries, each length-prefixed
    /// (32-bit little-endian).
    mutating func read(_ bytes: ArraySlice<UInt8>, into reading: inout TagReading) {
        var cursor = bytes.startIndex
        func u32() -> Int? {
            guard bytes.endIndex - cursor >= 4 else { return nil }
            let value = (0..<4).reduce(0) { $0 | Int(bytes[cursor + $1]) << (8 * $1) }
            cursor += 4
            return value
        }
        guard let vendor = u32(), bytes.endIndex - cursor >= vendor else { return }
        cursor += vendor
        guard let count = u32() else { return }
        for _ in 0..<min(count, 100_000) {
            guard let length = u32(), bytes.endIndex - cursor >= length else { break }
            let entry = bytes[cursor..<cursor + length]
            cursor += length
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = String(decoding: entry[..<equals], as: UTF8.self).uppercased()
            let raw = entry[(equals + 1)...]
            if name == "METADATA_BLOCK_PICTURE" {
                picture(base64: raw, into: &reading)
                continue
            }
            add(name, String(decoding: raw, as: UTF8.self), to: &reading.tags)
        }
    }

    mutating func add(_ name: String, _ value: String, to tags: inout AudioTags) {
        guard !value.isEmpty else { return }
        switch name {
        case "TITLE": tags.title = tags.title ?? value
        case "ARTIST": tags.artists.append(value)
        case "ALBUM": tags.album = tags.album ?? value
        case "ALBUMARTIST", "ALBUM_ARTIST", "ALBUM ARTIST": tags.albumArtists.append(value)
        // TRACK and DISC: libavformat's names for MP4's trkn and disk and Vorbis's numbers.
        case "TRACKNUMBER", "TRACK": trackNumber = trackNumber ?? value
        case "TRACKTOTAL", "TOTALTRACKS": trackTotal = trackTotal ?? value
        case "DISCNUMBER", "DISC": discNumber = discNumber ?? value
        case "DISCTOTAL", "TOTALDISCS": discTotal = discTotal ?? value
        case "DATE", "YEAR": tags.setDate(value)
        case "GENRE": tags.genres.append(value)
        case "COMMENT", "DESCRIPTION": tags.comment = tags.comment ?? value
        // Timed (LRC text) lyrics win over untimed ones, whichever comment comes first.
        case "LYRICS", "UNSYNCEDLYRICS":
            guard tags.lyrics?.isSynced != true, let lyrics = LRCLyrics.parse(value, source: name) else { return }
            if tags.lyrics == nil || lyrics.isSynced { tags.lyrics = lyrics }
        case let gain where gain.hasPrefix("REPLAYGAIN_"): gains.append((gain, value))
        case let chapter where chapter.hasPrefix("CHAPTER"): addChapter(chapter.dropFirst("CHAPTER".count), value)
        case let id where id.hasPrefix("MUSICBRAINZ_"): _ = tags.musicBrainz.set(name: id, values: [value])
        default: break
        }
    }

    /// `CHAPTERnn=HH:MM:SS.mmm` and `CHAPTERnnNAME=title`, as libavformat reads them.
    private mutating func addChapter(_ rest: Substring, _ value: String) {
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6, let number = Int(digits) else { return }
        let suffix = rest.dropFirst(digits.count)
        if suffix == "NAME" {
            chapterTitles[number] = value
        } else if suffix.isEmpty, let start = Self.milliseconds(value) {
            chapterStarts[number] = start
        }
    }

    /// A FLAC picture block in base64 (the Vorbis comment form): only its
    /// fields are decoded here, the picture itself when it is asked for.
    private mutating func picture(base64 text: ArraySlice<UInt8>, into reading: inout TagReading) {
        // The fields before the data fit in their limit; 4 characters make 3 bytes.
        let fields = Base64.decode(text.prefix(FLACPicture.headerLimit / 3 * 4))
        guard let picture = FLACPicture(fields[...]), picture.dataStart + picture.dataLength <= Base64.decodedLength(text.count) else {
            return
        }
        reading.addPicture(kind: picture.kind, mimeType: picture.mimeType, description: picture.description,
                           storedAt: nil, length: picture.dataLength) {
            let whole = Base64.decode(text)
            guard whole.count >= picture.dataStart + picture.dataLength else { return nil }
            return Array(whole[picture.dataStart..<picture.dataStart + picture.dataLength])
        }
    }

    /// What needs the whole block: numbers with their totals, chapters in order, ReplayGain.
    func finish(into reading: inout TagReading) {
        var tags = reading.tags
        if tags.track == nil, let trackNumber {
            tags.track = AudioTags.Position(trackNumber)?.withTotal(trackTotal.flatMap { AudioTags.Position($0)?.number })
        }
        if tags.disc == nil, let discNumber {
            tags.disc = AudioTags.Position(discNumber)?.withTotal(discTotal.flatMap { AudioTags.Position($0)?.number })
        }
        tags.replayGain = tags.replayGain.filling(from: ReplayGainInfo(fields: gains))
        if tags.chapters.isEmpty {
            let marks = chapterStarts.keys.sorted().map { (title: chapterTitles[$0] ?? "", start: chapterStarts[$0]!) }
            // The last chapter ends where the stream does, which the decoder knows (`endingChapters`).
            tags.chapters = marks.enumerated().map { index, mark in
                let end = index + 1 < marks.count ? max(mark.start, marks[index + 1].start) : mark.start
                return Chapter(title: mark.title, startMilliseconds: mark.start, endMilliseconds: end)
            }
        }
        reading.tags = tags
    }

    /// "HH:MM:SS.mmm" (the form the Ogg chapter comments use) in milliseconds;
    /// nil past a million hours, so no field reaches an overflow.
    static func milliseconds(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count <= 6, parts[1].count <= 6,
              let hours = Int(parts[0]), let minutes = Int(parts[1]), hours >= 0, minutes >= 0 else { return nil }
        let seconds = parts[2].split(separator: ".", omittingEmptySubsequences: false)
        guard seconds.count <= 2, seconds[0].count <= 6, let whole = Int(seconds[0]), whole >= 0 else { return nil }
        var fraction = 0
        if seconds.count == 2 {
            let digits = seconds[1].prefix(3)
            guard !digits.isEmpty, let value = Int(digits), value >= 0 else { return nil }
            fraction = value * [1, 100, 10, 1][digits.count]
        }
        return ((hours * 60 + minutes) * 60 + whole) * 1000 + fraction
    }
}

extension AudioTags {
    /// A `CHAPTERnn` comment's time ("HH:MM:SS.mmm") in milliseconds.
    public static func chapterTime(_ text: String) -> Int? { VorbisComments.milliseconds(text) }

    /// The tags of `NAME = VALUE` fields under the Vorbis comment names (in
    /// any case), as libavformat's dictionaries give them; pictures aside.
    public init(fields: [(name: String, value: String)]) {
        var reading = TagReading(wantedPicture: nil)
        var comments = VorbisComments()
        for (name, value) in fields where name.uppercased() != "METADATA_BLOCK_PICTURE" {
            comments.add(name.uppercased(), value, to: &reading.tags)
        }
        comments.finish(into: &reading)
        self = reading.tags
    }

    /// The last chapter, where the tag could not say its end (Vorbis
    /// comments give starts only), ended at the stream's end.
    public func endingChapters(atMilliseconds end: Int) -> AudioTags {
        guard let last = chapters.last, last.endMilliseconds <= last.startMilliseconds else { return self }
        var tags = self
        tags.chapters[chapters.count - 1] = Chapter(title: last.title, startMilliseconds: last.startMilliseconds,
                                                    endMilliseconds: max(last.startMilliseconds, end))
        return tags
    }
}

/// FLAC's PICTURE block (also the content of a Vorbis comment's
/// `METADATA_BLOCK_PICTURE`): the picture type, the MIME type and a
/// description, each length-prefixed (32-bit big-endian), four numbers of
/// size and colour, then the data's length and the data.
struct FLACPicture {
    /// The fields before the data: a MIME type and a description of a few hundred bytes at most.
    static let headerLimit = 64 * 1024

    let kind: EmbeddedPicture.Kind
    let mimeType: String
    let description: String
    /// Where the data starts in the block, and its length.
    let dataStart: Int
    let dataLength: Int

    init?(_ bytes: ArraySlice<UInt8>) {
        var cursor = bytes.startIndex
        func u32() -> Int? {
            guard bytes.endIndex - cursor >= 4 else { return nil }
            let value = bytes[cursor..<cursor + 4].reduce(0) { $0 << 8 | Int($1) }
            cursor += 4
            return value
        }
        func string() -> String? {
            guard let length = u32(), bytes.endIndex - cursor >= length else { return nil }
            defer { cursor += length }
            return String(decoding: bytes[cursor..<cursor + length], as: UTF8.self)
        }
        guard let type = u32(), let mimeType = string(), let description = string() else { return nil }
        for _ in 0..<4 { guard u32() != nil else { return nil } }
        guard let length = u32(), length > 0, length <= EmbeddedPicture.maximumLength else { return nil }
        kind = EmbeddedPicture.Kind(number: type) ?? .other
        self.mimeType = mimeType
        self.description = description
        dataStart = cursor - bytes.startIndex
        dataLength = length
    }
}

/// Base64 as Vorbis comments carry pictures (RFC 4648, padding optional,
/// anything outside the alphabet skipped).
enum Base64 {
    static func decode(_ text: ArraySlice<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            let value: UInt32
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(character - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(character - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(character - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            default: continue
            }
            accumulator = accumulator << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        return bytes
    }

    /// At most how many bytes `count` characters decode to.
    static func decodedLength(_ count: Int) -> Int { count / 4 * 3 + count % 4 }
}
