import LoopIO
import AudioEngine
import AudioDecoding
import BookFormat
import InterludeCore

/// What `info` reports about a cue sheet: the album it describes, the format
/// of each audio file it names, and its tracks with their times, as a
/// listener reads the back of a CD. The tracks' ends come from the next
/// track's `INDEX 01`, the last one's from its file's exact length.
struct CueSheetInfo {
    struct Track {
        let path: CueTrackPath
        let track: CueTrack
        let endSeconds: Double
    }

    let sheetPath: String
    let album: String?
    let performer: String?
    /// Each audio file the sheet names, in the sheet's order.
    let files: [FileInfo]
    let tracks: [Track]

    /// A path ending in `.cue` (any case) that is a file: `ALBUM.cue#N` is a
    /// track and goes to `FileInfo` through its decoder.
    static func names(_ path: String) -> Bool {
        path.lowercased().hasSuffix(".cue") && StateFile.isReadableFile(path)
    }

    init(sheetPath: String) throws(DecoderError) {
        self.sheetPath = sheetPath
        let resolved: [(path: CueTrackPath, track: CueTrack)]
        switch CueTrack.tracks(ofSheet: sheetPath) {
        case .failure(let error):
            // The message names the sheet already; the error's description puts the path first.
            let detail = error.message.hasPrefix(sheetPath + ": ") ? String(error.message.dropFirst(sheetPath.count + 2)) : error.message
            throw DecoderError(.unreadable, path: sheetPath, detail: detail)
        case .success(let found): resolved = found
        }
        guard let first = resolved.first else {
            throw DecoderError(.unreadable, path: sheetPath, detail: "has no tracks")
        }
        var files: [FileInfo] = []
        for (_, track) in resolved where !files.contains(where: { $0.path == track.audioPath }) {
            files.append(try FileInfo(path: track.audioPath))
        }
        self.files = files
        tracks = resolved.map { entry in
            let fileSeconds = files.first { $0.path == entry.track.audioPath }?.seconds ?? 0
            let end = entry.track.endMilliseconds.map { Double($0) / 1000 } ?? fileSeconds
            return Track(path: entry.path, track: entry.track, endSeconds: end)
        }
        album = first.track.album
        performer = resolved.map(\.track.performer).first { $0 != nil } ?? nil
    }

    var text: String {
        var lines = ["file:      \(sheetPath)",
                     "sheet:     cue sheet, \(tracks.count) track\(tracks.count == 1 ? "" : "s")"]
        if let album { lines.append("album:     \(album)") }
        if let performer { lines.append("artist:    \(performer)") }
        for file in files {
            lines.append("audio:     \(file.path)")
            lines.append("format:    \(file.codecText), \(file.format)")
            lines.append("duration:  \(clockText(file.seconds)) (\(JSONLine.number(file.seconds, decimals: 3)) s, \(file.frames) frames)")
        }
        lines.append("tracks:    \(tracks.count)")
        for entry in tracks {
            let start = clockText(Double(entry.track.startMilliseconds) / 1000)
            var line = "  \(entry.path.trackNumber). \(start)-\(clockText(entry.endSeconds))  \(entry.track.title)"
            if let artist = entry.track.performer, artist != performer { line += " (\(artist))" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    var json: String {
        var line = JSONLine()
        line.add("path", sheetPath)
        line.add("container", "cue sheet")
        if let album { line.add("album", album) }
        if let performer { line.add("artist", performer) }
        line.addRaw("files", "[" + files.map(\.json).joined(separator: ",") + "]")
        let trackObjects = tracks.map { entry -> String in
            var object = JSONLine()
            object.add("number", entry.path.trackNumber)
            object.add("path", entry.path.path)
            object.add("title", entry.track.title)
            if let artist = entry.track.performer { object.add("artist", artist) }
            object.add("file", entry.track.audioPath)
            object.add("start", Double(entry.track.startMilliseconds) / 1000)
            object.add("end", entry.endSeconds)
            return object.text
        }
        line.addRaw("tracks", "[" + trackObjects.joined(separator: ",") + "]")
        return line.text
    }
}
