/// The fields of an ID3v2 tag as `AudioTags`: its text frames (TIT2, TPE1,
/// TALB, TPE2, TRCK, TPOS, TDRC or TYER, TCON, COMM), ReplayGain (TXXX,
/// RVA2), CHAP/CTOC chapters and APIC pictures, each frame decoded once.
/// Text is trimmed of spaces and tabs; an empty or damaged frame leaves its
/// field empty.
enum ID3v2TagFields {
    static func read(_ tag: ID3v2Tag, into reading: inout TagReading) {
        var tags = reading.tags
        for frame in tag.frames {
            switch frame.id {
            case "TIT2": tags.title = tags.title ?? text(frame).first
            case "TPE1": if tags.artists.isEmpty { tags.artists = text(frame) }
            case "TALB": tags.album = tags.album ?? text(frame).first
            case "TPE2": tags.albumArtist = tags.albumArtist ?? text(frame).first
            case "TRCK": tags.track = tags.track ?? text(frame).first.flatMap(AudioTags.Position.init)
            case "TPOS": tags.disc = tags.disc ?? text(frame).first.flatMap(AudioTags.Position.init)
            // 2.4's recording time first, 2.3's year where it is missing (frames come in any order).
            case "TDRC": if let date = text(frame).first { tags.date = date; tags.year = AudioTags.year(of: date) }
            case "TYER": if tags.date == nil, let year = text(frame).first { tags.date = year; tags.year = AudioTags.year(of: year) }
            case "TCON": if tags.genres.isEmpty { tags.genres = text(frame).map(genreName) }
            case "COMM": tags.comment = tags.comment ?? comment(frame)
            default: continue
            }
        }
        tags.replayGain = ID3ReplayGain.info(from: tag)
        let chapters = ChapterList(tag: tag)
        tags.chapters = chapters.chapters
        tags.damage = chapters.damage.map { "damaged ID3v2 tag: \($0)" }
        reading.tags = tags
        for frame in tag.frames where frame.id == "APIC" { picture(frame, into: &reading) }
    }

    /// The frame's values, trimmed, the empty ones left out.
    static func text(_ frame: ID3v2Frame) -> [String] {
        guard let text = try? ID3v2TextFrame(body: frame.body) else { return [] }
        return text.values.map(\.trimmingSpaces).filter { !$0.isEmpty }
    }

    /// COMM: encoding, a three-letter language, a short description, the text.
    static func comment(_ frame: ID3v2Frame) -> String? {
        guard frame.body.count > 4 else { return nil }
        let fields = [frame.body[0]] + frame.body[4...]
        guard let text = try? ID3v2TextFrame(body: fields), text.values.count >= 2 else { return nil }
        let value = text.values[1].trimmingSpaces
        return value.isEmpty ? nil : value
    }

    /// APIC: encoding, a Latin-1 MIME type ending in 0, the picture type, a
    /// description in the encoding ending in its terminator, the data.
    static func picture(_ frame: ID3v2Frame, into reading: inout TagReading) {
        let body = frame.body
        guard body.count > 4, let encoding = ID3v2TextEncoding(rawValue: body[0]),
              let mimeEnd = body[1...].firstIndex(of: 0), mimeEnd + 1 < body.count,
              let descriptionEnd = EmbeddedFrames.endOfFirstString(body[(mimeEnd + 2)...], encoding: encoding) else { return }
        var mimeType = ID3v2TextEncoding.latin1.decode(body[1..<mimeEnd]).lowercased()
        // ID3v2.2's three-letter formats, which some writers still put here.
        if mimeType == "jpg" || mimeType == "jpeg" { mimeType = "image/jpeg" }
        if mimeType == "png" { mimeType = "image/png" }
        let description = encoding.decode(body[(mimeEnd + 2)..<max(mimeEnd + 2, descriptionEnd - encoding.terminatorWidth)])
        let length = body.count - descriptionEnd
        reading.addPicture(kind: EmbeddedPicture.Kind(number: Int(body[mimeEnd + 1])) ?? .other, mimeType: mimeType,
                           description: description, storedAt: frame.storedIndex.map { ($0 + descriptionEnd, length) },
                           length: length) { Array(body[descriptionEnd...]) }
    }

    /// ID3 writes a few genres as "(17)" or "17", ID3v1's numbers; the common
    /// ones are spelled out, others kept as written.
    static func genreName(_ text: String) -> String {
        var number = Substring(text)
        if number.hasPrefix("("), number.hasSuffix(")") { number = number.dropFirst().dropLast() }
        guard number.count <= 3, let index = Int(number), let name = genre(number: index) else { return text }
        return name
    }

    /// ID3v1's genre `number`, among the common ones.
    static func genre(number: Int) -> String? {
        number >= 0 && number < id3v1Genres.count ? id3v1Genres[number] : nil
    }

    private static let id3v1Genres = [
        "Blues", "Classic Rock", "Country", "Dance", "Disco", "Funk", "Grunge", "Hip-Hop", "Jazz", "Metal",
        "New Age", "Oldies", "Other", "Pop", "R&B", "Rap", "Reggae", "Rock", "Techno", "Industrial",
        "Alternative", "Ska", "Death Metal", "Pranks", "Soundtrack", "Euro-Techno", "Ambient", "Trip-Hop",
        "Vocal", "Jazz+Funk", "Fusion", "Trance", "Classical", "Instrumental", "Acid", "House", "Game",
        "Sound Clip", "Gospel", "Noise", "Alternative Rock", "Bass", "Soul", "Punk", "Space", "Meditative",
        "Instrumental Pop", "Instrumental Rock", "Ethnic", "Gothic", "Darkwave", "Techno-Industrial",
        "Electronic", "Pop-Folk", "Eurodance", "Dream", "Southern Rock", "Comedy", "Cult", "Gangsta",
        "Top 40", "Christian Rap", "Pop/Funk", "Jungle", "Native American", "Cabaret", "New Wave",
        "Psychedelic", "Rave", "Showtunes", "Trailer", "Lo-Fi", "Tribal", "Acid Punk", "Acid Jazz", "Polka",
        "Retro", "Musical", "Rock & Roll", "Hard Rock",
    ]
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
