#if canImport(Glibc)
import Glibc
#endif
import AudioDecoding
import BookFormat
import InterludeCore
import MusicLibrary

/// Reads one file for the index: duration and format from the decoder that
/// plays it (chosen by content, as playback chooses), tags from the same
/// decoder's one reading of them (`Decoder.tags`): the file is opened once
/// for both.
package enum TrackReader {
    /// `folder` and `name`, when given, open the file relative to its open folder.
    package static func read(path: String, stamp: ScanDiff.Stamp, folder: Int32 = AT_FDCWD, name: String? = nil) throws(DecoderError) -> LibraryTrack {
        var head: [UInt8]?
        switch probe(path: path, stamp: stamp, folder: folder, name: name) {
        case .track(let track): return track
        case .other(let bytes): head = bytes
        case .unreadable: break
        }
        // The bytes the probe read are the decoder's head: the file is not read again for them.
        let decoder = try Decoders.open(path: path, head: head.map { FileHead(bytes: $0) })
        defer { decoder.close() }
        var track = LibraryTrack(path: path, size: stamp.size, modifiedNanoseconds: stamp.modifiedNanoseconds)
        if let frames = decoder.lengthInFrames, decoder.format.rate > 0 {
            track.durationSeconds = decoder.format.seconds(forFrames: frames)
        }
        if decoder.sourceFormat.rate > 0 && decoder.sourceFormat.channels > 0 {
            track.sampleRate = decoder.sourceFormat.rate
            track.channels = decoder.sourceFormat.channels
        }
        track.format = switch decoder.streamInfo.codec {
        case .mpegAudio(_, let layer): "mp\(layer)"
        case .other(_, let codec): codec.lowercased()
        }
        apply(decoder.tags, to: &track)
        return track
    }

    /// The tags' fields as the index keeps them; the gains a tagger (or the
    /// encoder) wrote, what is missing left nil for `library scan --loudness`
    /// to measure.
    package static func apply(_ tags: AudioTags, to track: inout LibraryTrack) {
        track.title = tags.title
        track.artists = tags.artists
        track.album = tags.album
        track.albumArtists = tags.albumArtists
        track.genres = tags.genres
        track.year = tags.year
        track.trackNumber = tags.track?.number
        track.discNumber = tags.disc?.number
        track.trackGain = tags.replayGain.trackGain
        track.trackPeak = tags.replayGain.trackPeak
        track.albumGain = tags.replayGain.albumGain
        track.albumPeak = tags.replayGain.albumPeak
    }

    /// The common case read in one open and one or two reads: an ID3v2 tag
    /// followed by MPEG audio. Tags from the tag, the length from the first
    /// frame (`MPEGAudioLength`), no decoder: opening libmpg123 for each of
    /// 100,000 files cost most of a scan's time. nil for anything else (no
    /// ID3v2 tag: ID3v1 is at the end; another container; a tag or first
    /// frame this cannot read), which then goes through the decoder.
    package static func readMP3WithTag(path: String, stamp: ScanDiff.Stamp, folder: Int32 = AT_FDCWD, name: String? = nil) -> LibraryTrack? {
        if case .track(let track) = probe(path: path, stamp: stamp, folder: folder, name: name) { return track }
        return nil
    }

    /// What the first read of a file found: the fast path's track, or the
    /// file's first bytes for the decoder that reads it instead.
    package enum Probe {
        case track(LibraryTrack)
        case other(head: [UInt8])
        case unreadable
    }

    package static func probe(path: String, stamp: ScanDiff.Stamp, folder: Int32, name: String?) -> Probe {
        guard let descriptor = try? AudioPathCheck.open(name ?? path, relativeTo: folder) else { return .unreadable }
        defer { close(descriptor) }
        // Most tags are a few hundred bytes; the first frame and the next
        // frame's header (which `MPEGAudioLength` checks) fit in 4 KB after it.
        var head = readBytes(descriptor, count: FileHead.capacity)
        let first = head
        guard head.count >= 10, head.starts(with: "ID3".utf8) else { return .other(head: first) }
        let declared = Int(head[6] & 0x7F) << 21 | Int(head[7] & 0x7F) << 14 | Int(head[8] & 0x7F) << 7 | Int(head[9] & 0x7F)
        let tagLength = 10 + declared + (head[5] & 0x10 != 0 ? 10 : 0)
        if head.count < tagLength + 3 * 1024, Int64(head.count) < stamp.size {
            head += readBytes(descriptor, count: tagLength + 4096 - head.count)
        }
        // A header `BookFormat` cannot read (ID3v2.5, a damaged size) goes to the decoder, whose library reads it.
        guard tagLength < head.count, (try? ID3v2Header(bytes: head[...])) != nil,
              let length = MPEGAudioLength(bytes: head[tagLength...], audioBytes: stamp.size - Int64(tagLength)) else {
            return .other(head: first)
        }
        var track = LibraryTrack(path: path, size: stamp.size, modifiedNanoseconds: stamp.modifiedNanoseconds)
        track.durationSeconds = length.seconds
        track.format = "mp\(length.layer)"
        track.sampleRate = length.sampleRate
        track.channels = length.channels
        // The tag and the first frame are in `head`: read from there, not from the file again.
        apply(AudioTags.read(path: path, head: head), to: &track)
        return .track(track)
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
}
