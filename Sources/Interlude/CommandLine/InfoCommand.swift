import AudioEngine
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
        var tagsLine = JSONLine()
        let tagFields = Self.tagFields(tags, albumArtist: "albumArtist")
        for (name, value) in tagFields {
            if let value { tagsLine.add(name, value) }
        }
        line.addRaw("tags", tagsLine.text)
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
