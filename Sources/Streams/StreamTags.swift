import BookFormat

/// The title a station's own tags give: an Ogg stream's comment header (Opus,
/// Vorbis, FLAC), which a station sends again at each new chain of the
/// stream (ices, oggfwd, liquidsoap feeding an Icecast Ogg mount) where an
/// MP3 station sends an ICY block, or an HLS station's timed ID3 tag. ARTIST
/// and TITLE read as "Artist - Title", the way Icecast shows an Ogg mount's
/// song on its status page and ICY stations write `StreamTitle`; either alone
/// when the other is missing or blank; nil when both are, so a chain without
/// tags keeps the title shown.
///
/// The values are FFmpeg's, as bytes: UTF-8 by the format, Latin-1 when a
/// tagger got that wrong (`StreamText`), trimmed, and cut at
/// `maximumValueBytes`: a comment header may be megabytes long, a title not.
public enum StreamTags {
    /// As long as the longest ICY block: a title, never a picture.
    public static let maximumValueBytes = ICYMetadata.maximumBlockBytes

    public static func title(artist: [UInt8]?, title: [UInt8]?) -> String? {
        let artist = artist.flatMap(text), title = title.flatMap(text)
        switch (artist, title) {
        case let (artist?, title?): return "\(artist) - \(title)"
        case let (artist?, nil): return artist
        case let (nil, title?): return title
        case (nil, nil): return nil
        }
    }

    /// The title of a timed ID3 tag: HLS's timed metadata (Apple's "Timed
    /// Metadata for HTTP Live Streaming": an ID3v2.4 tag in a PES packet of
    /// its own stream in an MPEG-TS segment, FFmpeg's `timed_id3` stream),
    /// TPE1 and TIT2 read as ARTIST and TITLE are. Nil for a tag with neither,
    /// or for bytes that are not a whole tag.
    ///
    /// FFmpeg 5.1's MPEG-TS demuxer takes the first five bytes of such a
    /// packet for a metadata access unit's header (ISO 13818-1, 2.12.4; later
    /// versions skip them for KLV only), and hands over the tag without "ID3",
    /// its version and its revision. A packet that does not start with "ID3"
    /// is read with them put back, version 4 as the spec says, and is taken
    /// only when it then reads as a whole tag, intact.
    public static func title(timedID3 bytes: [UInt8]) -> String? {
        let magic: [UInt8] = [0x49, 0x44, 0x33]
        let whole = bytes.starts(with: magic) ? bytes : magic + [4, 0] + bytes
        guard let tag = try? ID3v2Tag(bytes: whole), tag.damage == nil else { return nil }
        func text(_ id: String) -> [UInt8]? {
            guard let frame = tag.frames(withID: id).first, let text = try? ID3v2TextFrame(body: frame.body) else { return nil }
            return Array(text.text.utf8)
        }
        return title(artist: text("TPE1"), title: text("TIT2"))
    }

    /// The station's own name in its tags, where no `icy-name` header gives
    /// one: an Ogg stream's ORGANIZATION comment (the Vorbis comment field
    /// for the organisation producing the stream: VLC shows it as the
    /// stream's publisher, while TITLE is the song, as Icecast and mpv read
    /// it), or a timed ID3 tag's TRSN frame ("Internet radio station name",
    /// ID3v2.4). Nil when absent or blank.
    public static func stationName(organization: [UInt8]?) -> String? {
        organization.flatMap(text)
    }

    /// The TRSN frame of an HLS station's timed ID3 tag (see `title(timedID3:)`
    /// for how the packet is read), or nil.
    public static func stationName(timedID3 bytes: [UInt8]) -> String? {
        let magic: [UInt8] = [0x49, 0x44, 0x33]
        let whole = bytes.starts(with: magic) ? bytes : magic + [4, 0] + bytes
        guard let tag = try? ID3v2Tag(bytes: whole), tag.damage == nil,
              let frame = tag.frames(withID: "TRSN").first, let text = try? ID3v2TextFrame(body: frame.body) else { return nil }
        return Self.text(Array(text.text.utf8))
    }

    /// The value decoded and trimmed; nil when nothing is left.
    private static func text(_ bytes: [UInt8]) -> String? {
        // A cut inside a UTF-8 sequence would make the whole value read as Latin-1: cut before it.
        var end = min(bytes.count, maximumValueBytes)
        if end < bytes.count { while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 } }
        let value = StreamText.trimmed(bytes[..<end])
        return value.isEmpty ? nil : StreamText.decode(value)
    }
}
