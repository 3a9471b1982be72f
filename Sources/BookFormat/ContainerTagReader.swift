import Glibc

extension AudioTags {
    /// The tags of the file at `path`, read without a decoding library: an
    /// ID3v2 tag at its start (MP3, or before a FLAC) with LAME's ReplayGain
    /// after it, a FLAC's metadata blocks, an Ogg Vorbis or Opus stream's
    /// comments, an MP4's `ilst` atoms. `head`: the file's first bytes when
    /// the caller has read them already (they are not read again). Empty for
    /// another format, a file that cannot be read, or one without tags. A
    /// cue sheet's track (`SHEET.cue#N`, where no file has that name) gives
    /// its image's tags with the sheet's words for the track over them, as
    /// its decoder does.
    ///
    /// The decoders call this when they open a file, and report the result;
    /// the folder browser calls it directly, since opening FFmpeg's libraries
    /// for a listing (25 MB resident, a demuxer per file) would cost more than
    /// the listing is worth.
    public static func read(path: String, head: [UInt8] = []) -> AudioTags {
        if let cue = CueTrackPath(path), access(path, F_OK) != 0 {
            guard case .success(let track) = CueTrack.resolve(cue) else { return AudioTags() }
            return read(path: track.audioPath).forTrack(track)
        }
        return ContainerTagReader.read(TagFile(path: path, head: head), loadingPicture: nil).tags
    }

    /// An image's tags for one of its cue sheet's tracks: the sheet's words
    /// for the track over them (the image's title is the album's, not the
    /// track's); a track has no chapters of its own.
    public func forTrack(_ track: CueTrack) -> AudioTags {
        var tags = self
        tags.title = track.title
        if let performer = track.performer { tags.artists = [performer] }
        if let album = track.album { tags.album = album }
        tags.chapters = []
        return tags
    }

    /// The file name without folder and audio extension, for files without a title.
    public static func displayName(ofPath path: String) -> String {
        AudioFileNames.withoutAudioExtension(path.split(separator: "/").last.map(String.init) ?? path)
    }
}

/// What one reading of a file's tags gives.
struct TagReading {
    var tags = AudioTags()
    /// The ordinal of the picture whose bytes are wanted (`EmbeddedPicture.bytes`), and those bytes once met.
    let wantedPicture: Int?
    var loadedPicture: [UInt8]?
    /// An ID3 SYLT timed in MPEG frames, until the first frame after the tag says how long a frame is.
    var frameTimedLyrics: SyncedLyricsFrame?

    init(wantedPicture: Int?) { self.wantedPicture = wantedPicture }

    /// Adds a picture whose bytes are stored transformed: `bytes` makes them,
    /// called only for the one picture asked for.
    mutating func addPicture(kind: EmbeddedPicture.Kind, mimeType: String, description: String,
                             storedAt range: (offset: Int, length: Int)?, length: Int, bytes: () -> [UInt8]?) {
        guard length > 0, length <= EmbeddedPicture.maximumLength else { return }
        let ordinal = tags.pictures.count
        let location: EmbeddedPicture.Location = range.map { .range(offset: $0.offset, length: $0.length) }
            ?? .transformed(ordinal: ordinal, length: length)
        tags.pictures.append(EmbeddedPicture(kind: kind, mimeType: mimeType, description: description, location: location))
        if ordinal == wantedPicture { loadedPicture = bytes() }
    }
}

/// Reads the tags of the formats the project plays by their own layout, with
/// no decoding library. Reads only what it needs: a FLAC's metadata blocks
/// and an MP4's boxes are walked by their headers (a picture or a sample
/// table is skipped, its place noted); an Ogg stream's comment packet is read
/// from its first pages. Every length is checked against what was read, so
/// damage gives fewer tags, never a crash; invalid UTF-8 becomes U+FFFD.
enum ContainerTagReader {
    /// The largest comment block, comment packet, `ilst` item or ID3v2 tag
    /// read: a picture inside one (an Ogg comment's, an ID3 tag's) can be a
    /// few MB; more is damage.
    static let blockLimit = 16 << 20

    static func read(_ file: TagFile, loadingPicture wanted: Int?) -> TagReading {
        var reading = TagReading(wantedPicture: wanted)
        let head = file.bytes(at: 0, count: 16)
        if head.starts(with: "ID3".utf8), head.count >= 10 {
            // The size is four 7-bit bytes, plus a footer when flagged.
            let size = head[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7f) }
            let tagLength = ID3v2Header.length + size + (head[5] & 0x10 != 0 ? 10 : 0)
            let tagBytes = file.bytes(at: 0, count: min(tagLength, blockLimit))
            do throws(ID3v2Error) {
                ID3v2TagFields.read(try ID3v2Tag(bytes: tagBytes), into: &reading)
            } catch {
                reading.tags.damage = "unreadable ID3v2 tag: \(error)"
            }
            if file.bytes(at: tagLength, count: 4).elementsEqual("fLaC".utf8) {
                flac(file, at: tagLength, into: &reading)
            } else if carriesAPEv2(file.bytes(at: tagLength, count: 4)) {
                apev2(file, into: &reading)
            } else {
                // LAME's Info tag in the first MPEG frame, for what the ID3 tag lacks.
                let frame = file.bytes(at: tagLength, count: LameReplayGain.headBytes)
                let lame = LameReplayGain.info(fromFirstFrame: frame)
                reading.tags.replayGain = reading.tags.replayGain.filling(from: lame)
                if let synced = reading.frameTimedLyrics, let header = MPEGFrameHeader(frame, at: 0) {
                    let samples = header.layer == 1 ? 384 : header.layer == 3 && header.version != 3 ? 576 : 1152
                    reading.tags.lyrics = synced.lyrics(samplesPerFrame: samples, sampleRate: header.sampleRate) ?? reading.tags.lyrics
                }
            }
        } else if head.starts(with: "fLaC".utf8) {
            flac(file, at: 0, into: &reading)
        } else if head.starts(with: "OggS".utf8) {
            ogg(file, into: &reading)
        } else if head.count >= 8, head[4..<8].elementsEqual("ftyp".utf8) {
            mp4(file, into: &reading)
        } else if head.starts(with: "FORM".utf8), head.count >= 12, ["AIFF", "AIFC"].contains(where: { head[8..<12].elementsEqual($0.utf8) }) {
            ChunkTags.aiff(file, into: &reading)
        } else if head.starts(with: "RIFF".utf8), head.count >= 12, head[8..<12].elementsEqual("WAVE".utf8) {
            ChunkTags.wav(file, into: &reading)
        } else if head.starts(with: "FRM8".utf8), head.count >= 16, head[12..<16].elementsEqual("DSD ".utf8) {
            ChunkTags.dff(file, into: &reading)
        } else if head.starts(with: "DSD ".utf8) {
            ChunkTags.dsf(file, into: &reading)
        } else if head.starts(with: ASFTags.header) {
            ASFTags.read(file, into: &reading)
        } else if carriesAPEv2(head) {
            apev2(file, into: &reading)
        } else if !head.starts(with: "RIFF".utf8) {
            // MPEG audio without an ID3v2 tag: LAME's values alone.
            reading.tags.replayGain = LameReplayGain.info(fromFirstFrame: file.bytes(at: 0, count: LameReplayGain.headBytes))
        }
        return reading
    }

    // MARK: APEv2

    /// WavPack, Monkey's Audio, Musepack (SV8 and SV7) and TTA, whose tags are
    /// APEv2's, and a file that starts with an APEv2 tag.
    static func carriesAPEv2(_ head: [UInt8]) -> Bool {
        ["wvpk", "MAC ", "MPCK", "MP+", "TTA1", "APETAGEX"].contains { head.starts(with: $0.utf8) }
    }

    /// The APEv2 tag's text items, for what the reading lacks.
    static func apev2(_ file: TagFile, into reading: inout TagReading) {
        guard let tag = APEv2Tag.read(length: file.length(), { file.bytes(at: $0, count: $1) }) else { return }
        reading.tags = reading.tags.filling(from: AudioTags(fields: tag.fields))
    }

    // MARK: FLAC

    /// FLAC: "fLaC", then metadata blocks (a byte of last-flag and type, a
    /// 24-bit length); type 4 holds the Vorbis comments, type 6 a picture, of
    /// which only the fields before the data are read.
    static func flac(_ file: TagFile, at start: Int, into reading: inout TagReading) {
        var offset = start + 4
        var comments = VorbisComments()
        for _ in 0..<1024 {
            let header = file.bytes(at: offset, count: 4)
            guard header.count == 4 else { break }
            let length = Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            let body = offset + 4
            switch header[0] & 0x7f {
            case 4 where length <= blockLimit:
                comments.read(file.bytes(at: body, count: length)[...], into: &reading)
            case 6:
                let fields = file.bytes(at: body, count: min(length, FLACPicture.headerLimit))
                if let picture = FLACPicture(fields[...]), picture.dataStart + picture.dataLength <= length {
                    let dataOffset = body + picture.dataStart
                    reading.addPicture(kind: picture.kind, mimeType: picture.mimeType, description: picture.description,
                                       storedAt: (dataOffset, picture.dataLength), length: picture.dataLength) {
                        file.bytes(at: dataOffset, count: picture.dataLength)
                    }
                }
            default: break
            }
            if header[0] & 0x80 != 0 { break }
            offset = body + length
        }
        comments.finish(into: &reading)
    }

    // MARK: Ogg

    /// Ogg: the first logical stream's second packet, reassembled from its
    /// pages' segment tables, read page by page: "\u{3}vorbis" or "OpusTags",
    /// then the comments.
    static func ogg(_ file: TagFile, into reading: inout TagReading) {
        var offset = 0
        var serial: [UInt8]?
        var packets: [[UInt8]] = [[]]
        for _ in 0..<100_000 where packets.count <= 2 {
            let header = file.bytes(at: offset, count: 27)
            guard header.count == 27, header[0..<4].elementsEqual("OggS".utf8) else { return }
            let segments = file.bytes(at: offset + 27, count: Int(header[26]))
            guard segments.count == Int(header[26]) else { return }
            let pageSerial = Array(header[14..<18])
            let sameStream = serial.map { $0 == pageSerial } ?? true
            serial = serial ?? pageSerial
            let dataLength = segments.reduce(0) { $0 + Int($1) }
            let data = offset + 27 + segments.count
            if sameStream {
                let bytes = file.bytes(at: data, count: dataLength)
                guard bytes.count == dataLength else { return }
                var at = 0
                for length in segments.map(Int.init) {
                    packets[packets.count - 1] += bytes[at..<at + length]
                    at += length
                    // A segment shorter than 255 ends its packet.
                    if length < 255 { packets.append([]) }
                }
                guard packets[packets.count - 1].count <= blockLimit else { return }
            }
            offset = data + dataLength
        }
        guard packets.count > 2 else { return }
        let packet = packets[1]
        for magic in ["\u{3}vorbis", "OpusTags"] where packet.starts(with: magic.utf8) {
            var comments = VorbisComments()
            comments.read(packet[magic.utf8.count...], into: &reading)
            comments.finish(into: &reading)
        }
    }

    // MARK: MP4

    /// MP4: `moov` > `udta` > `meta` > `ilst`, walked by the boxes' headers
    /// (muxers often write `moov` last); each `ilst` item holds `data` boxes
    /// (a type in the flags: 1 UTF-8, 0 or 21 numbers, 13 JPEG, 14 PNG). A
    /// `covr` item's pictures are noted by place, not read.
    static func mp4(_ file: TagFile, into reading: inout TagReading) {
        guard let movie = box("moov", in: file, from: 0, to: Int.max),
              let userData = box("udta", in: file, from: movie.start, to: movie.end),
              let meta = box("meta", in: file, from: userData.start, to: userData.end) else { return }
        // ISO's `meta` is a full box (version and flags first); QuickTime's is not.
        let first = file.bytes(at: meta.start, count: 8)
        let children = first.count == 8 && first[4..<8].elementsEqual("hdlr".utf8) ? meta.start : meta.start + 4
        guard let list = box("ilst", in: file, from: children, to: meta.end) else { return }
        var fields: [(name: String, value: String)] = []
        for item in boxes(in: file, from: list.start, to: list.end) {
            if item.type.elementsEqual("covr".utf8) {
                for data in boxes(in: file, from: item.start, to: item.end) where data.type.elementsEqual("data".utf8) {
                    let flags = file.bytes(at: data.start, count: 4)
                    let length = data.end - data.start - 8
                    guard flags.count == 4, length > 0 else { continue }
                    let mime = switch flags[3] { case 13: "image/jpeg"; case 14: "image/png"; case 27: "image/bmp"; default: "" }
                    let offset = data.start + 8
                    reading.addPicture(kind: .frontCover, mimeType: mime, description: "", storedAt: (offset, length), length: length) {
                        file.bytes(at: offset, count: length)
                    }
                }
                continue
            }
            guard item.end - item.start <= blockLimit else { continue }
            let content = file.bytes(at: item.start, count: item.end - item.start)
            MP4ItemFields.read(type: item.type, content: content[...], into: &reading, freeform: &fields)
        }
        reading.tags.replayGain = reading.tags.replayGain.filling(from: ReplayGainInfo(fields: fields))
    }

    /// The boxes from `start` to `end` in the file, by their headers only:
    /// each one's type and its content's range. At most 10,000, so a damaged
    /// size cannot make the walk endless.
    static func boxes(in file: TagFile, from start: Int, to end: Int) -> [(type: [UInt8], start: Int, end: Int)] {
        var found: [(type: [UInt8], start: Int, end: Int)] = []
        var offset = start
        for _ in 0..<10_000 where offset < end {
            let header = file.bytes(at: offset, count: 16)
            guard header.count >= 8 else { break }
            var size = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            var length = 8
            if size == 1 {
                guard header.count == 16 else { break }
                size = header[8..<16].reduce(0) { $0 << 8 | Int($1 & 0x7f) }
                length = 16
            }
            // Size 0: to the end of the file (or of the parent).
            guard size == 0 || (size >= length && size <= Int.max - offset) else { break }
            let boxEnd = size == 0 ? end : offset + size
            found.append((Array(header[4..<8]), offset + length, min(boxEnd, end)))
            if size == 0 { break }
            offset = boxEnd
        }
        return found
    }

    static func box(_ type: String, in file: TagFile, from start: Int, to end: Int) -> (start: Int, end: Int)? {
        boxes(in: file, from: start, to: end).first { $0.type.elementsEqual(type.utf8) }.map { ($0.start, $0.end) }
    }
}

/// The text and number items of an MP4 `ilst` box.
enum MP4ItemFields {
    static func read(type: [UInt8], content: ArraySlice<UInt8>, into reading: inout TagReading,
                     freeform: inout [(name: String, value: String)]) {
        var tags = reading.tags
        defer { reading.tags = tags }
        if type.elementsEqual("----".utf8) {
            // Freeform: `mean` (the reverse domain), `name`, `data`; ReplayGain and MusicBrainz are named here.
            guard let name = child("name", in: content), name.count > 4 else { return }
            let values = texts(in: content)
            guard let value = values.first else { return }
            let field = String(decoding: name.dropFirst(4), as: UTF8.self)
            if !tags.musicBrainz.set(name: field, values: values) { freeform.append((field, value)) }
            return
        }
        // A text item may hold several `data` boxes: several artists or genres (as mutagen writes a list).
        switch type {
        case [0xa9] + Array("nam".utf8): tags.title = tags.title ?? text(in: content)
        case [0xa9] + Array("ART".utf8): if tags.artists.isEmpty { tags.artists = texts(in: content) }
        case [0xa9] + Array("alb".utf8): tags.album = tags.album ?? text(in: content)
        case Array("aART".utf8): if tags.albumArtists.isEmpty { tags.albumArtists = texts(in: content) }
        case [0xa9] + Array("day".utf8): tags.setDate(text(in: content))
        case [0xa9] + Array("gen".utf8): if tags.genres.isEmpty { tags.genres = texts(in: content) }
        case [0xa9] + Array("cmt".utf8): tags.comment = tags.comment ?? text(in: content)
        case [0xa9] + Array("lyr".utf8): tags.lyrics = tags.lyrics ?? text(in: content).flatMap { LRCLyrics.parse($0, source: "MP4 ©lyr") }
        case Array("gnre".utf8):
            // ID3v1's genre number plus one, as a 16-bit number.
            if tags.genres.isEmpty, let value = numbers(in: content), value.count >= 2 {
                let index = Int(value[0]) << 8 | Int(value[1])
                if let name = ID3v1Genre.name(number: index - 1) { tags.genres = [name] }
            }
        case Array("trkn".utf8), Array("disk".utf8):
            // Two bytes of padding, then the number and the total, 16 bits each.
            guard let value = numbers(in: content), value.count >= 6 else { return }
            let place = AudioTags.Position(number: Int(value[2]) << 8 | Int(value[3]), total: Int(value[4]) << 8 | Int(value[5]))
            if type.elementsEqual("trkn".utf8) { tags.track = tags.track ?? place } else { tags.disc = tags.disc ?? place }
        default: break
        }
    }

    /// A `data` child: its type (in the flags' last byte) and its value after the locale.
    static func data(in content: ArraySlice<UInt8>) -> (type: UInt8, value: ArraySlice<UInt8>)? {
        guard let value = child("data", in: content), value.count >= 8 else { return nil }
        return (value[value.startIndex + 3], value.dropFirst(8))
    }

    static func text(in content: ArraySlice<UInt8>) -> String? {
        texts(in: content).first
    }

    /// Every UTF-8 `data` child's text, in order, the empty ones left out.
    static func texts(in content: ArraySlice<UInt8>) -> [String] {
        var found: [String] = []
        forEachChild(in: content) { boxType, value in
            guard boxType.elementsEqual("data".utf8), value.count > 8, value[value.startIndex + 3] == 1 else { return }
            found.append(String(decoding: value.dropFirst(8), as: UTF8.self))
        }
        return found
    }

    /// A number item's bytes, indexed from 0.
    static func numbers(in content: ArraySlice<UInt8>) -> [UInt8]? {
        guard let (type, value) = data(in: content), type == 0 || type == 21 else { return nil }
        return Array(value)
    }

    /// Each box in `data`: its four-byte type and its content.
    static func forEachChild(in data: ArraySlice<UInt8>, _ body: ([UInt8], ArraySlice<UInt8>) -> Void) {
        var offset = data.startIndex
        while data.endIndex - offset >= 8 {
            var size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            var header = 8
            if size == 1 {
                guard data.endIndex - offset >= 16 else { return }
                size = data[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1 & 0x7f) }
                header = 16
            } else if size == 0 {
                size = data.endIndex - offset
            }
            guard size >= header, size <= data.endIndex - offset else { return }
            body(Array(data[offset + 4..<offset + 8]), data[offset + header..<offset + size])
            offset += size
        }
    }

    static func child(_ type: String, in data: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var found: ArraySlice<UInt8>?
        forEachChild(in: data) { boxType, content in
            if found == nil, boxType.elementsEqual(type.utf8) { found = content }
        }
        return found
    }
}
