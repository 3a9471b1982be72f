#if canImport(Glibc)
import Glibc
#endif
import AudioEngine
import BookFormat
import InterludeCore
import MusicLibrary
import ReplayGain

/// Reads one file for the index: duration and format from the decoder that
/// plays it (chosen by content, as playback chooses), tags from the decoder
/// and, for a file with an ID3v2 tag, from the tag itself (album artist,
/// track and disc numbers, which libmpg123 does not give).
enum TrackReader {
    /// `folder` and `name`, when given, open the file relative to its open folder.
    static func read(path: String, stamp: ScanDiff.Stamp, folder: Int32 = AT_FDCWD, name: String? = nil) throws(DecoderError) -> LibraryTrack {
        if let track = readMP3WithTag(path: path, stamp: stamp, folder: folder, name: name) { return track }
        let decoder = try Decoders.open(path: path)
        defer { decoder.close() }
        var track = LibraryTrack(path: path, size: stamp.size, modifiedNanoseconds: stamp.modifiedNanoseconds)
        if let frames = decoder.lengthInFrames, decoder.format.rate > 0 {
            track.durationSeconds = decoder.format.seconds(forFrames: frames)
        }
        track.format = switch decoder.streamInfo.codec {
        case .mpegAudio(_, let layer): "mp\(layer)"
        case .other(_, let codec): codec.lowercased()
        }
        let tags = decoder.tags()
        track.title = tags.title
        track.artist = tags.artist
        track.album = tags.album
        track.albumArtist = tags.albumArtist
        track.genre = tags.genre
        track.year = TagNumbers.year(tags.year)
        track.trackNumber = TagNumbers.leadingNumber(tags.track)
        track.discNumber = TagNumbers.leadingNumber(tags.disc)
        if let bytes = try? TagFileReader.tagBytes(atPath: path), !bytes.isEmpty, let tag = try? ID3v2Tag(bytes: bytes) {
            apply(tag, to: &track)
        }
        // ReplayGain as playback reads it: the file's head (ID3v2, LAME), then the decoder's tags.
        let fields = tags.replayGain.map { (name: $0.key, value: $0.value) }
        apply(ReplayGainReader.read(path: path).filling(from: ReplayGainInfo(fields: fields)), to: &track)
        return track
    }

    /// The gains a tagger (or the encoder) wrote; what is missing stays nil
    /// for `library scan --loudness` to measure.
    static func apply(_ info: ReplayGainInfo, to track: inout LibraryTrack) {
        track.trackGain = info.trackGain
        track.trackPeak = info.trackPeak
        track.albumGain = info.albumGain
        track.albumPeak = info.albumPeak
    }

    /// Where the tag gives a field, it wins over what the decoder found.
    static func apply(_ tag: ID3v2Tag, to track: inout LibraryTrack) {
        // One pass over the frames, each wanted one decoded once (the first
        // of its ID): a filtered list per ID was nine passes and nine arrays
        // per file of a scan.
        var texts: [String?] = Array(repeating: nil, count: wantedFrames.count)
        var decoded: [Bool] = Array(repeating: false, count: wantedFrames.count)
        for frame in tag.frames {
            guard let slot = wantedFrames.firstIndex(of: frame.id), !decoded[slot] else { continue }
            decoded[slot] = true
            if let text = try? ID3v2TextFrame(body: frame.body).text, !text.isEmpty { texts[slot] = text }
        }
        track.title = texts[0] ?? track.title
        track.artist = texts[1] ?? track.artist
        track.album = texts[2] ?? track.album
        track.albumArtist = texts[3] ?? track.albumArtist
        track.genre = texts[4].map(genreName) ?? track.genre
        track.year = TagNumbers.year(texts[5] ?? texts[6]) ?? track.year
        track.trackNumber = TagNumbers.leadingNumber(texts[7]) ?? track.trackNumber
        track.discNumber = TagNumbers.leadingNumber(texts[8]) ?? track.discNumber
    }

    /// The text frames `apply` reads, in the order of its slots.
    private static let wantedFrames = ["TIT2", "TPE1", "TALB", "TPE2", "TCON", "TDRC", "TYER", "TRCK", "TPOS"]

    /// The common case read in one open and one or two reads: an ID3v2 tag
    /// followed by MPEG audio. Tags from the tag, the length from the first
    /// frame (`MPEGAudioLength`), no decoder: opening libmpg123 for each of
    /// 100,000 files cost most of a scan's time. nil for anything else (no
    /// ID3v2 tag: ID3v1 is at the end; another container; a tag or first
    /// frame this cannot read), which then goes through the decoder.
    static func readMP3WithTag(path: String, stamp: ScanDiff.Stamp, folder: Int32 = AT_FDCWD, name: String? = nil) -> LibraryTrack? {
        guard let descriptor = try? AudioPathCheck.open(name ?? path, relativeTo: folder) else { return nil }
        defer { close(descriptor) }
        // Most tags are a few hundred bytes; the first frame and the next
        // frame's header (which `MPEGAudioLength` checks) fit in 4 KB after it.
        var head = readBytes(descriptor, count: 4096)
        guard head.count >= 10, head.starts(with: "ID3".utf8) else { return nil }
        let declared = Int(head[6] & 0x7F) << 21 | Int(head[7] & 0x7F) << 14 | Int(head[8] & 0x7F) << 7 | Int(head[9] & 0x7F)
        let tagLength = 10 + declared + (head[5] & 0x10 != 0 ? 10 : 0)
        if head.count < tagLength + 3 * 1024, Int64(head.count) < stamp.size {
            head += readBytes(descriptor, count: tagLength + 4096 - head.count)
        }
        guard tagLength < head.count, let tag = try? ID3v2Tag(bytes: head[..<tagLength]),
              let length = MPEGAudioLength(bytes: head[tagLength...], audioBytes: stamp.size - Int64(tagLength)) else {
            return nil
        }
        var track = LibraryTrack(path: path, size: stamp.size, modifiedNanoseconds: stamp.modifiedNanoseconds)
        track.durationSeconds = length.seconds
        track.format = "mp\(length.layer)"
        apply(tag, to: &track)
        apply(ID3ReplayGain.info(from: tag).filling(from: LameReplayGain.info(fromFirstFrame: Array(head[tagLength...]))), to: &track)
        return track
    }

    private static func readBytes(_ descriptor: Int32, count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var total = 0
            while total < count {
                let got = Glibc.read(descriptor, buffer.baseAddress! + total, count - total)
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { break }
                total += got
            }
            initialized = total
        }
    }

    /// ID3 writes a few genres as "(17)" or "17", ID3v1's numbers; the common
    /// ones are spelled out, others kept as written.
    static func genreName(_ text: String) -> String {
        var number = Substring(text)
        if number.hasPrefix("("), number.hasSuffix(")") { number = number.dropFirst().dropLast() }
        guard let index = Int(number), index >= 0, index < id3v1Genres.count else { return text }
        return id3v1Genres[index]
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
