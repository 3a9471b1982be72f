/// The fields of an ID3v2 tag as `AudioTags`: its text frames (TIT2, TPE1,
/// TALB, TPE2, TRCK, TPOS, TDRC or TYER+TDAT+TIME, TCON, COMM), ReplayGain
/// (TXXX, RVA2), MusicBrainz ids (TXXX, UFID), CHAP/CTOC chapters and APIC
/// pictures, each frame decoded once. ID3v2.2's three-letter frames arrive
/// here under their 2.3 names (`ID3v2FrameList`). Text is split at its
/// terminators (2.4's lists, and the terminator many writers end a value
/// with), trimmed of spaces and tabs; an empty or damaged frame leaves its
/// field empty. A list frame (TPE1, TPE2, TCON) keeps every value, the others
/// take the first.
enum ID3v2TagFields {
    static func read(_ tag: ID3v2Tag, into reading: inout TagReading) {
        var tags = reading.tags
        // 2.3's date is in three frames (year, day and month, time), in any order.
        var year: String?, dayMonth: String?, time: String?
        var comments: [(description: String, text: String)] = []
        var userTexts: [(name: String, value: String)] = []
        var synced: SyncedLyricsFrame?, unsynced: Lyrics?
        for frame in tag.frames {
            switch frame.id {
            case "TIT2": tags.title = tags.title ?? text(frame).first
            case "TPE1": if tags.artists.isEmpty { tags.artists = text(frame) }
            case "TALB": tags.album = tags.album ?? text(frame).first
            case "TPE2": if tags.albumArtists.isEmpty { tags.albumArtists = text(frame) }
            case "TRCK": tags.track = tags.track ?? text(frame).first.flatMap(AudioTags.Position.init)
            case "TPOS": tags.disc = tags.disc ?? text(frame).first.flatMap(AudioTags.Position.init)
            case "TDRC": if let date = text(frame).first { tags.date = date; tags.year = AudioTags.year(of: date) }
            case "TYER": year = year ?? text(frame).first
            case "TDAT": dayMonth = dayMonth ?? text(frame).first
            case "TIME": time = time ?? text(frame).first
            case "TCON": if tags.genres.isEmpty { tags.genres = ID3Genres.names(text(frame)) }
            case "COMM": if let comment = comment(frame) { comments.append(comment) }
            case "TXXX": if let field = userText(frame, into: &tags.musicBrainz) { userTexts.append(field) }
            case "UFID": if tags.musicBrainz.recordingID == nil { tags.musicBrainz.recordingID = musicBrainzRecording(frame) }
            case "SYLT": synced = synced ?? ID3Lyrics.synced(frame)
            case "USLT": unsynced = unsynced ?? ID3Lyrics.unsynced(frame)
            default: continue
            }
        }
        // 2.4's recording time first, 2.3's year (with its day and time) where it is missing.
        if tags.date == nil, let date = year.flatMap({ Self.date(year: $0, dayMonth: dayMonth, time: time) }) {
            tags.date = date
            tags.year = AudioTags.year(of: date)
        }
        // The comment without a description: iTunes keeps its own data
        // (iTunNORM, iTunSMPB) in described ones.
        tags.comment = tags.comment ?? (comments.first { $0.description.isEmpty } ?? comments.first)?.text
        tags.replayGain = ID3ReplayGain.info(userText: userTexts, in: tag)
        let chapters = ChapterList(tag: tag)
        tags.chapters = chapters.chapters
        tags.damage = chapters.damage.map { "damaged ID3v2 tag: \($0)" }
        // A SYLT timed in MPEG frames waits for the stream's first frame (`ContainerTagReader`).
        if let synced, synced.unit == .mpegFrames {
            reading.frameTimedLyrics = synced
        } else {
            tags.lyrics = synced?.lyrics(samplesPerFrame: nil, sampleRate: nil)
        }
        tags.lyrics = tags.lyrics ?? unsynced
        reading.tags = tags
        for frame in tag.frames where frame.id == "APIC" { picture(frame, into: &reading) }
    }

    /// ID3v2.3's TYER ("2001"), TDAT (day and month, "0305") and TIME
    /// ("1030") as one date in 2.4's TDRC form ("2001-05-03T10:30:00"), as
    /// mutagen converts them: TYER is four digits, or 2.4's "2001-05-03"
    /// that some writers put there (TDAT's day and month win over its own);
    /// TDAT and TIME are four digits or ignored, TIME only after a day. nil
    /// when TYER is neither.
    static func date(year: String, dayMonth: String?, time: String?) -> String? {
        func isDigits(_ text: Substring) -> Bool { text.allSatisfy { $0.isASCII && $0.isNumber } }
        func pairs(_ text: String?) -> (Substring, Substring)? {
            guard let text, text.count == 4, isDigits(text[...]) else { return nil }
            return (text.prefix(2), text.dropFirst(2))
        }
        let digits = year.prefix(4), rest = year.dropFirst(4)
        guard digits.count == 4, isDigits(digits) else { return nil }
        var monthDay: String?
        if !rest.isEmpty {
            guard rest.count == 6, rest.first == "-", rest.dropFirst(3).first == "-",
                  isDigits(rest.dropFirst().prefix(2)), isDigits(rest.suffix(2)) else { return nil }
            monthDay = String(rest)
        }
        if let (day, month) = pairs(dayMonth) { monthDay = "-\(month)-\(day)" }
        guard let monthDay else { return String(digits) }
        let date = String(digits) + monthDay
        guard let (hours, minutes) = pairs(time) else { return date }
        return "\(date)T\(hours):\(minutes):00"
    }

    /// TXXX: encoding, a description, then the value (2.4: values). MusicBrainz's
    /// ids are read here; the description and first value of another (for
    /// `ID3ReplayGain`) are returned.
    static func userText(_ frame: ID3v2Frame, into ids: inout MusicBrainzIDs) -> (name: String, value: String)? {
        let values = text(frame, keepingEmpty: true)
        guard values.count >= 2 else { return nil }
        // ID3 keeps the recording in UFID; a TXXX of MP4's name for it is another tool's own.
        if values[0].uppercased() != "MUSICBRAINZ TRACK ID", ids.set(name: values[0], values: Array(values.dropFirst())) { return nil }
        return (values[0], values[1])
    }

    /// UFID: the owner (Latin-1, ending in 0), then the identifier's bytes;
    /// MusicBrainz's owner names a recording's id.
    static func musicBrainzRecording(_ frame: ID3v2Frame) -> String? {
        let body = frame.body
        guard let end = body.firstIndex(of: 0), body[..<end].elementsEqual("http://musicbrainz.org".utf8) else { return nil }
        let identifier = ID3v2TextEncoding.latin1.decode(body[(end + 1)...].prefix { $0 != 0 }).trimmingSpaces
        return identifier.isEmpty ? nil : identifier
    }

    /// The frame's values, trimmed, the empty ones left out (`keepingEmpty`:
    /// kept, where a value's place matters, as TXXX's description's does).
    static func text(_ frame: ID3v2Frame, keepingEmpty: Bool = false) -> [String] {
        guard let text = try? ID3v2TextFrame(body: frame.body) else { return [] }
        let values = text.values.map(\.trimmingSpaces)
        return keepingEmpty ? values : values.filter { !$0.isEmpty }
    }

    /// COMM: encoding, a three-letter language, a short description, the
    /// text (its first value); nil without text.
    static func comment(_ frame: ID3v2Frame) -> (description: String, text: String)? {
        guard frame.body.count > 4 else { return nil }
        let fields = [frame.body[0]] + frame.body[4...]
        guard let text = try? ID3v2TextFrame(body: fields), text.values.count >= 2 else { return nil }
        guard let value = text.values.dropFirst().lazy.map(\.trimmingSpaces).first(where: { !$0.isEmpty }) else { return nil }
        return (text.values[0], value)
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
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
