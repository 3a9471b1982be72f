/// The title a station's own tags give: an Ogg stream's comment header (Opus,
/// Vorbis, FLAC), which a station sends again at each new chain of the
/// stream (ices, oggfwd, liquidsoap feeding an Icecast Ogg mount) where an
/// MP3 station sends an ICY block. ARTIST and TITLE read as "Artist - Title",
/// the way Icecast shows an Ogg mount's song on its status page and ICY
/// stations write `StreamTitle`; either alone when the other is missing or
/// blank; nil when both are, so a chain without tags keeps the title shown.
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

    /// The value decoded and trimmed; nil when nothing is left.
    private static func text(_ bytes: [UInt8]) -> String? {
        // A cut inside a UTF-8 sequence would make the whole value read as Latin-1: cut before it.
        var end = min(bytes.count, maximumValueBytes)
        if end < bytes.count { while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 } }
        let value = StreamText.trimmed(bytes[..<end])
        return value.isEmpty ? nil : StreamText.decode(value)
    }
}
