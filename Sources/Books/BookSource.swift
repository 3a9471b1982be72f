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
        public let tags: BookTags
        public let chapters: [Chapter]
        /// One sentence when the tag could not be read or is damaged; the
        /// chapters read before the damage are kept.
        public let tagProblem: String?

        public init(path: String, tags: BookTags = BookTags(), chapters: [Chapter] = [], tagProblem: String? = nil) {
            self.path = path
            self.tags = tags
            self.chapters = chapters
            self.tagProblem = tagProblem
        }
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

    /// Reads the book at `path`: a folder (its MP3 files in natural order)
    /// or a single file.
    public static func load(path: String) throws(BookLoadError) -> BookSource {
        if let names = DirectoryListing.names(in: path) {
            let audio = BookFolderOrder.audioFiles(names)
            guard !audio.isEmpty else { throw .noAudioFiles(path: path) }
            let folder = path.hasSuffix("/") ? path : path + "/"
            return BookSource(path: path, kind: .folder, files: audio.map { readFile(folder + $0) })
        }
        guard StateFile.isReadableFile(path) else { throw .cannotOpen(path: path) }
        return BookSource(path: path, kind: .file, files: [readFile(path)])
    }

    /// The tags and chapters of one file. Problems are kept, not thrown: the
    /// file may still play, as one chapter named after it.
    static func readFile(_ path: String) -> File {
        let bytes: [UInt8]
        do {
            bytes = try TagFileReader.tagBytes(atPath: path)
        } catch {
            return File(path: path, tagProblem: error.description)
        }
        guard !bytes.isEmpty else { return File(path: path) }
        let tag: ID3v2Tag
        do {
            tag = try ID3v2Tag(bytes: bytes)
        } catch {
            return File(path: path, tagProblem: "\(path): unreadable ID3v2 tag: \(error)")
        }
        let list = ChapterList(tag: tag)
        return File(path: path, tags: BookTags(tag: tag), chapters: list.chapters,
                    tagProblem: list.damage.map { "\(path): damaged ID3v2 tag: \($0)" })
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
