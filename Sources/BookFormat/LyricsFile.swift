import Glibc

extension Lyrics {
    /// The most of an LRC file read: its lines' tags take room beside the
    /// text that `byteLimit` bounds. The rest of a longer file is not read.
    public static let fileLimit = 2 << 20

    /// The lyrics of the file at `audioPath`: `NAME.lrc` (or `NAME.LRC`)
    /// beside it, where the user put one, else the tags'. nil when there
    /// are none.
    public static func find(audioPath: String, tags: AudioTags) -> Lyrics? {
        for path in lrcPaths(audioPath: audioPath) where access(path, F_OK) == 0 {
            return read(lrcPath: path)
        }
        return tags.lyrics
    }

    /// `dir/NAME.lrc` for `dir/NAME.mp3` (the last extension replaced), in both cases.
    public static func lrcPaths(audioPath: String) -> [String] {
        let slash = audioPath.lastIndex(of: "/")
        let name = slash.map { audioPath[audioPath.index(after: $0)...] } ?? audioPath[...]
        guard !name.isEmpty, name != ".", name != ".." else { return [] }
        let stem = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : name[..<$0] } ?? name
        let folder = slash.map { String(audioPath[...$0]) } ?? ""
        return [folder + stem + ".lrc", folder + stem + ".LRC"]
    }

    /// An LRC file, its first `fileLimit` bytes at most (a longer one is cut
    /// at its last whole line and says so); a file that cannot be read
    /// gives no lines and the one line that says why.
    public static func read(lrcPath: String) -> Lyrics {
        let name = String(lrcPath.split(separator: "/").last ?? Substring(lrcPath))
        let file = TagFile(path: lrcPath)
        var bytes = file.bytes(at: 0, count: fileLimit + 1)
        var cut: String?
        if bytes.count > fileLimit {
            let lastNewline = bytes[..<fileLimit].lastIndex(of: UInt8(ascii: "\n")) ?? fileLimit
            bytes.removeSubrange(lastNewline...)
            cut = "\(name): longer than 2 MB; only its first 2 MB are read"
        }
        guard !bytes.isEmpty else {
            let why = access(lrcPath, R_OK) == 0 ? "empty, or not a regular file" : "cannot be read"
            return Lyrics(content: .unsynced([]), source: name, problem: "\(name): \(why)")
        }
        var lyrics = LRCLyrics.parse(LyricsText.decode(bytes[...]), source: name)
            ?? Lyrics(content: .unsynced([]), source: name, problem: "\(name): no lyric lines")
        if let cut { lyrics.problem = [cut, lyrics.problem].compactMap { $0 }.joined(separator: "; ") }
        return lyrics
    }
}
