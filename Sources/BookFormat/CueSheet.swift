/// A cue sheet (`.cue`): the tracks of one or more audio files, each starting
/// at its `INDEX 01` in minutes:seconds:frames (75 frames a second, CD time).
/// Pure: it parses bytes; finding the sheet beside a file is the caller's.
///
/// What it reads: `FILE`, `TRACK`, `INDEX`, `TITLE`, `PERFORMER` (the sheet's
/// and each track's); the other commands (`REM`, `FLAGS`, `ISRC`, `PREGAP`,
/// `CATALOG`, ...) are skipped. Text is UTF-8 (a byte-order mark is dropped);
/// a sheet that is not valid UTF-8 is read as Latin-1, which is what older
/// rippers wrote, so no byte ever stops the parse.
public struct CueSheet: Equatable, Sendable {
    public struct Track: Equatable, Sendable {
        public let number: Int
        public var title: String?
        public var performer: String?
        /// `INDEX 01`: where the track starts, in milliseconds of its file.
        public var startMilliseconds: Int?
        /// `INDEX 01` in CD frames (1/75 s), as written: exact in samples at
        /// the usual rates, where milliseconds are rounded.
        public var startCDFrames: Int?
        /// `INDEX 00`, the pre-gap's start, when given.
        public var pregapMilliseconds: Int?
    }

    public struct File: Equatable, Sendable {
        /// As the sheet names it: relative to the sheet's folder, or absolute.
        public let name: String
        public var tracks: [Track]
    }

    public var title: String?
    public var performer: String?
    public private(set) var files: [File] = []

    /// Parses a sheet; throws at the first line that cannot be read, naming it.
    public init(bytes: [UInt8]) throws(CueSheetError) {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        let text: String
        if let utf8 = String(validating: body, as: UTF8.self) {
            text = utf8
        } else {
            var scalars = String.UnicodeScalarView()
            for byte in body { scalars.append(Unicode.Scalar(byte)) }
            text = String(scalars)
        }
        try self.init(text: text)
    }

    public init(text: String) throws(CueSheetError) {
        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            lineNumber += 1
            let words = Self.words(of: rawLine)
            guard let command = words.first?.uppercased() else { continue }
            let arguments = Array(words.dropFirst())
            switch command {
            case "FILE":
                guard let name = arguments.first, !name.isEmpty else {
                    throw CueSheetError(line: lineNumber, reason: "FILE without a file name")
                }
                files.append(File(name: name, tracks: []))
            case "TRACK":
                guard !files.isEmpty else { throw CueSheetError(line: lineNumber, reason: "TRACK before any FILE") }
                guard let text = arguments.first, let number = Int(text), (0...99).contains(number) else {
                    throw CueSheetError(line: lineNumber, reason: "TRACK without a number from 1 to 99")
                }
                files[files.count - 1].tracks.append(Track(number: number))
            case "INDEX":
                guard let fileIndex = files.indices.last, let trackIndex = files[fileIndex].tracks.indices.last else {
                    throw CueSheetError(line: lineNumber, reason: "INDEX before any TRACK")
                }
                guard arguments.count >= 2, let number = Int(arguments[0]), (0...99).contains(number) else {
                    throw CueSheetError(line: lineNumber, reason: "INDEX needs a number and a time")
                }
                let cdFrames = try Self.cdFrames(arguments[1], line: lineNumber)
                let time = Self.milliseconds(cdFrames: cdFrames)
                if number == 0 { files[fileIndex].tracks[trackIndex].pregapMilliseconds = time }
                if number == 1 {
                    files[fileIndex].tracks[trackIndex].startMilliseconds = time
                    files[fileIndex].tracks[trackIndex].startCDFrames = cdFrames
                }
            case "TITLE", "PERFORMER":
                let value = arguments.first.flatMap { $0.isEmpty ? nil : $0 }
                if let fileIndex = files.indices.last, let trackIndex = files[fileIndex].tracks.indices.last {
                    if command == "TITLE" { files[fileIndex].tracks[trackIndex].title = value }
                    else { files[fileIndex].tracks[trackIndex].performer = value }
                } else if command == "TITLE" {
                    title = value
                } else {
                    performer = value
                }
            default:
                continue
            }
        }
        guard files.contains(where: { !$0.tracks.isEmpty }) else {
            throw CueSheetError(line: 0, reason: "no TRACK in the sheet")
        }
        for file in files {
            var previous = -1
            for track in file.tracks {
                guard let start = track.startMilliseconds else {
                    throw CueSheetError(line: 0, reason: "track \(track.number) has no INDEX 01")
                }
                guard start > previous else {
                    throw CueSheetError(line: 0, reason: "track \(track.number) starts before the track above it ends")
                }
                previous = start
            }
        }
    }

    /// The file the sheet describes for an audio file named `fileName` (its
    /// last path component): the FILE of that name (case-insensitively), else
    /// the sheet's only FILE.
    public func file(named fileName: String) -> File? {
        let wanted = fileName.lowercased()
        if let match = files.first(where: { ($0.name.split(separator: "/").last.map(String.init) ?? $0.name).lowercased() == wanted }) {
            return match
        }
        return files.count == 1 ? files[0] : nil
    }

    /// The tracks of `file` as chapters: each ends where the next starts, the
    /// last at `durationMilliseconds` (or where it starts, when not known).
    /// An untitled track is "Track N".
    public func chapters(of file: File, durationMilliseconds: Int?) -> [Chapter] {
        let tracks = file.tracks
        return tracks.indices.map { index in
            let track = tracks[index]
            let start = track.startMilliseconds ?? 0
            let end = index + 1 < tracks.count ? (tracks[index + 1].startMilliseconds ?? start)
                : max(start, durationMilliseconds ?? start)
            return Chapter(title: track.title ?? "Track \(track.number)", startMilliseconds: start, endMilliseconds: end)
        }
    }

    /// mm:ss:ff, 75 frames a second, rounded to the nearest millisecond.
    static func milliseconds(_ text: String, line: Int) throws(CueSheetError) -> Int {
        milliseconds(cdFrames: try cdFrames(text, line: line))
    }

    static func milliseconds(cdFrames: Int) -> Int { (cdFrames * 1000 * 2 + 75) / 150 }

    /// mm:ss:ff in CD frames.
    static func cdFrames(_ text: String, line: Int) throws(CueSheetError) -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 6 && $0.allSatisfy(\.isASCII) }),
              let minutes = Int(parts[0]), let seconds = Int(parts[1]), let frames = Int(parts[2]),
              minutes >= 0, (0..<60).contains(seconds), (0..<75).contains(frames) else {
            throw CueSheetError(line: line, reason: "bad time '\(text)' (minutes:seconds:frames, 75 frames a second)")
        }
        return (minutes * 60 + seconds) * 75 + frames
    }

    /// A line's words: runs of non-blank characters, or double-quoted text
    /// (which may hold blanks; a quote left open runs to the line's end).
    static func words(of line: Substring) -> [String] {
        var words: [String] = []
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if character == " " || character == "\t" {
                index = line.index(after: index)
            } else if character == "\"" {
                let start = line.index(after: index)
                let end = line[start...].firstIndex(of: "\"") ?? line.endIndex
                words.append(String(line[start..<end]))
                index = end < line.endIndex ? line.index(after: end) : end
            } else {
                let end = line[index...].firstIndex(where: { $0 == " " || $0 == "\t" }) ?? line.endIndex
                words.append(String(line[index..<end]))
                index = end
            }
        }
        return words
    }
}

/// Why a cue sheet cannot be used, with the line (0: the sheet as a whole).
public struct CueSheetError: Error, Equatable, Sendable, CustomStringConvertible {
    public let line: Int
    public let reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { line > 0 ? "line \(line): \(reason)" : reason }
}
