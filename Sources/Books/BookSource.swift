import BookFormat
import InterludeCore

/// What a book is made of before anything is decoded: its files in playing
/// order, their tags and chapters. Reading it touches the folder listing and
/// each file's ID3v2 tag only (a few kilobytes per file); the files' exact
/// lengths come from the decoder, which the application owns (see `Book`).
public struct BookSource: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// A folder of MP3 files in natural order.
        case folder
        /// One MP3 file, chaptered by its tag or not.
        case file
    }

    public struct File: Equatable, Sendable {
        public let path: String
        public let tags: AudioTags
        /// One sentence when the tag could not be read or is damaged; the
        /// chapters read before the damage are kept.
        public let tagProblem: String?

        /// The tag's damage, if any, is the problem.
        public init(path: String, tags: AudioTags = AudioTags()) {
            self.path = path
            self.tags = tags
            tagProblem = tags.damage.map { "\(path): \($0)" }
        }

        /// `problem`: what reading the file met (its tag's damage, a cue sheet beside it).
        public init(path: String, tags: AudioTags, problem: String?) {
            self.path = path
            self.tags = tags
            tagProblem = problem
        }

        /// A file with these chapters and no other tags.
        public init(path: String, chapters: [Chapter]) {
            var tags = AudioTags()
            tags.chapters = chapters
            self.init(path: path, tags: tags)
        }

        /// The tag's chapters (ID3v2 CHAP, Vorbis `CHAPTERnn`) or the container's.
        public var chapters: [Chapter] { tags.chapters }
    }

    public let path: String
    public let kind: Kind
    public let files: [File]

    public init(path: String, kind: Kind, files: [File]) {
        self.path = path
        self.kind = kind
        self.files = files
    }

    /// The last component of the path, without ".mp3" for a file: the title
    /// when the tags give none.
    public var baseName: String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let name = trimmed.split(separator: "/").last.map(String.init) ?? String(trimmed)
        return kind == .file ? Self.withoutExtension(name) : name
    }

    static func withoutExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// Reads the book at `path`: a folder (its audio files in natural order)
    /// or a single file. `readFile` gives each file's tags (the application
    /// reads them with the decoder it opens for the file's length anyway); by
    /// default `AudioTags.read`'s.
    public static func load(path: String, readFile: (String) -> File = { File(path: $0, tags: AudioTags.read(path: $0)) })
        throws(BookLoadError) -> BookSource {
        if let names = DirectoryListing.names(in: path) {
            let audio = BookFolderOrder.audioFiles(names)
            guard !audio.isEmpty else { throw .noAudioFiles(path: path) }
            let folder = path.hasSuffix("/") ? path : path + "/"
            return BookSource(path: path, kind: .folder, files: audio.map { readFile(folder + $0) })
        }
        guard StateFile.isReadableFile(path) else { throw .cannotOpen(path: path) }
        return BookSource(path: path, kind: .file, files: [readFile(path)])
    }
}

/// Why a path is not a book, as one sentence naming it.
public enum BookLoadError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String)
    case noAudioFiles(path: String)
    case nothingPlayable(path: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path): "cannot open book \(path): no such folder or readable file"
        case .noAudioFiles(let path): "\(path) holds no audio files (\(AudioFileNames.formatList)), so it is not a book"
        case .nothingPlayable(let path): "no file of the book \(path) could be decoded"
        }
    }
}
