import PlayerModel
import LoopIO
import LibraryIO
import AudioEngine
import AudioDecoding
import BookFormat
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// `interlude info FILE [--json]`: format, duration, bitrate and tags.
public enum InfoCommand {
    public static let help = """
    usage: interlude info FILE [--json]

    Shows an audio file's format (codec and container), exact duration,
    bitrate, tags, and its chapters: an MP3's ID3v2 CHAP/CTOC frames, an
    M4B's or Ogg file's own, or a cue sheet beside the file (NAME.cue).
    Given a cue sheet (ALBUM.cue), shows the album: its audio file's format
    and the tracks with their times; ALBUM.cue#N is one of its tracks.
    """

    static let spec = ArgumentSpec(command: "info", flags: ["--json"])

    public static func run(_ arguments: [String]) -> Int32 {
        let parsed: ParsedArguments
        switch spec.start(arguments, help: help) {
        case .parsed(let arguments): parsed = arguments
        case .finished(let status): return status
        }
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            writeStandardError("interlude info: give exactly one file (see 'interlude info --help')\n")
            return 2
        }
        let info: (text: String, json: String)
        do {
            if CueSheetInfo.names(path) {
                let sheet = try CueSheetInfo(sheetPath: path)
                info = (sheet.text, sheet.json)
            } else {
                let file = try FileInfo(path: path)
                info = (file.text, file.json)
            }
        } catch {
            writeStandardError("interlude: \(error.description)\n")
            return 1
        }
        writeStandardOutput((parsed.has("--json") ? info.json : info.text) + "\n")
        return 0
    }
}

/// What `info` reports about one file.
struct FileInfo {
    let path: String
    let format: AudioFormat
    let codec: StreamInfo.Codec
    let frames: Int
    let bitrateKbps: Int
    let averageKbps: Int
    let bitrateMode: StreamInfo.BitrateMode
    let tags: AudioTags
    let chapters: [Chapter]
    /// Why the chapter table could not be read in full, if it could not.
    let chapterProblem: String?

    var seconds: Double { format.seconds(forFrames: frames) }

    init(path: String) throws(DecoderError) {
        let decoder = try Decoders.open(path: path)
        // A full scan gives the exact length even without a Xing/LAME header.
        try decoder.scan()
        let stream = decoder.streamInfo
        self.path = path
        format = decoder.format
        frames = decoder.lengthInFrames ?? 0
        codec = stream.codec
        bitrateKbps = stream.bitrateKbps
        bitrateMode = stream.bitrateMode
        tags = decoder.tags
        let cueTrack = CueTrackPath(path).flatMap { access(path, F_OK) != 0 ? try? CueTrack.resolve($0).get() : nil }
        if let cueTrack {
            // A range of the image: no chapters of its own, the image's average bitrate.
            chapters = []
            chapterProblem = nil
            let imageInfo = try FileInfo(path: cueTrack.audioPath)
            averageKbps = imageInfo.averageKbps
            return
        }
        // The decoder's chapters (ID3v2 CHAP/CTOC, the container's), else a cue sheet beside the file.
        let found = FileChapters(path: path, tags: tags, durationMilliseconds: Int((format.seconds(forFrames: frames) * 1000).rounded()))
        chapters = found.chapters
        chapterProblem = tags.damage ?? found.problem
        var size = 0
        if let fileSize = fileSizeBytes(path) { size = fileSize }
        let seconds = format.seconds(forFrames: frames)
        averageKbps = seconds > 0 ? Int((Double(size) * 8 / seconds / 1000).rounded()) : 0
    }

    /// The fields `info` prints, numbers and dates as the tag wrote them.
    static func tagFields(_ tags: AudioTags, albumArtist: String) -> [(String, String?)] {
        [("title", tags.title), ("artist", tags.artist), ("album", tags.album), (albumArtist, tags.albumArtist),
         ("track", tags.track?.description), ("disc", tags.disc?.description), ("year", tags.date ?? tags.year.map(String.init)),
         ("genre", tags.genre), ("comment", tags.comment)]
    }

    /// The tags as `--json` gives them: each field once as a line (the
    /// list ones joined by "; ", as `text` shows them) and the list fields
    /// (`artists`, `albumArtists`, `genres`, MusicBrainz's artist ids) as
    /// lists; numbers as numbers; a field the file lacks left out.
    static func tagsJSON(_ tags: AudioTags) -> String {
        var object = JSONLine()
        object.add("title", ifPresent: tags.title)
        object.add("artist", ifPresent: tags.artist)
        object.add("artists", strings: tags.artists)
        object.add("album", ifPresent: tags.album)
        object.add("albumArtist", ifPresent: tags.albumArtist)
        object.add("albumArtists", strings: tags.albumArtists)
        for (name, place) in [("track", tags.track), ("disc", tags.disc)] {
            object.add(name, ifPresent: place?.description)
            object.add(name + "Number", ifPresent: place?.number)
            object.add(name + "Total", ifPresent: place?.total)
        }
        object.add("date", ifPresent: tags.date)
        object.add("year", ifPresent: tags.year)
        object.add("genre", ifPresent: tags.genre)
        object.add("genres", strings: tags.genres)
        object.add("comment", ifPresent: tags.comment)
        let gain = tags.replayGain
        for (name, value) in [("trackGain", gain.trackGain), ("trackPeak", gain.trackPeak), ("albumGain", gain.albumGain),
                              ("albumPeak", gain.albumPeak)] {
            object.add(name, ifPresent: value, decimals: 6)
        }
        let ids = tags.musicBrainz
        object.add("musicBrainzRecordingId", ifPresent: ids.recordingID)
        object.add("musicBrainzAlbumId", ifPresent: ids.albumID)
        object.add("musicBrainzArtistIds", strings: ids.artistIDs)
        object.add("musicBrainzAlbumArtistIds", strings: ids.albumArtistIDs)
        object.add("musicBrainzReleaseGroupId", ifPresent: ids.releaseGroupID)
        return object.text
    }

    var codecText: String {
        switch codec {
        case .mpegAudio(let version, let layer): "MPEG \(version.rawValue) layer \(layer)"
        case .other(let container, let codec): "\(codec) in \(container)"
        }
    }

    var text: String {
        var lines = [
            "file:      \(path)",
            "format:    \(codecText), \(format)",
            "duration:  \(clockText(seconds)) (\(JSONLine.number(seconds, decimals: 3)) s, \(frames) frames)",
            "bitrate:   \(bitrateMode == .constant ? "\(bitrateKbps) kbps CBR" : "\(averageKbps) kbps average, \(bitrateMode.rawValue.uppercased())")",
        ]
        let tagLines = Self.tagFields(tags, albumArtist: "album artist")
        for (name, value) in tagLines {
            if let value { lines.append("\(name):\(String(repeating: " ", count: max(1, 10 - name.count)))\(value)") }
        }
        if !chapters.isEmpty {
            lines.append("chapters:  \(chapters.count)")
            for (index, chapter) in chapters.enumerated() {
                let start = clockText(Double(chapter.startMilliseconds) / 1000)
                let end = clockText(Double(chapter.endMilliseconds) / 1000)
                lines.append("  \(index + 1). \(start)-\(end)  \(chapter.title)")
            }
        }
        if let chapterProblem { lines.append("note:      \(chapterProblem)") }
        return lines.joined(separator: "\n")
    }

    var json: String {
        var line = JSONLine()
        line.add("path", path)
        switch codec {
        case .mpegAudio(let version, let layer):
            line.add("mpegVersion", version.rawValue)
            line.add("layer", layer)
        case .other(let container, let codec):
            line.add("container", container)
            line.add("codec", codec)
        }
        line.add("sampleRate", format.rate)
        line.add("channels", format.channels)
        line.add("duration", seconds, decimals: 6)
        line.add("frames", frames)
        line.add("bitrate", bitrateMode == .constant ? bitrateKbps : averageKbps)
        line.add("bitrateMode", bitrateMode.rawValue)
        line.addRaw("tags", Self.tagsJSON(tags))
        let chapterObjects = chapters.map { chapter -> String in
            var object = JSONLine()
            object.add("title", chapter.title)
            object.add("start", Double(chapter.startMilliseconds) / 1000)
            object.add("end", Double(chapter.endMilliseconds) / 1000)
            return object.text
        }
        line.addRaw("chapters", "[" + chapterObjects.joined(separator: ",") + "]")
        return line.text
    }
}
