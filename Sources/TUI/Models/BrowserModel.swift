import BookFormat

/// One row of the browser: a folder, or an MP3 with its tag title.
public struct BrowserEntry: Equatable, Sendable {
    public var name: String
    public var path: String
    public var isDirectory: Bool
    /// The tag title (or the file name when the file has none); for folders, the name.
    public var title: String
    public var artist: String
    /// The way to another root (the books folder from the music folder, and
    /// back), at the top of a root: a place to go, not an entry of the folder.
    public var isShortcut = false

    public init(name: String, path: String, isDirectory: Bool, title: String? = nil, artist: String = "") {
        self.name = name
        self.path = path
        self.isDirectory = isDirectory
        self.title = title ?? name
        self.artist = artist
    }

    /// The parent-folder row at the top of every folder but `/`.
    public static func parent(of directory: String) -> BrowserEntry {
        BrowserEntry(name: "..", path: BrowserModel.parent(of: directory), isDirectory: true, title: "..")
    }

    /// A root's row: "books: ~/Audiobooks".
    static func shortcut(_ label: String, to path: String, home: String?) -> BrowserEntry {
        var shown = path
        if let home, !home.isEmpty, home != "/", path.hasPrefix(home + "/") { shown = "~" + path.dropFirst(home.count) }
        var entry = BrowserEntry(name: label, path: path, isDirectory: true, title: "\(label): \(shown)")
        entry.isShortcut = true
        return entry
    }
}

/// Lists a folder: the seam between the browser and the file system.
public protocol BrowserSource {
    /// Folders and audio files directly in `directory`, in any order; nil when it cannot be read.
    func entries(in directory: String) -> [BrowserEntry]?
    /// The audio files in `directory` and every folder below it, as the
    /// browser lists them (each folder's folders, then its files, in natural
    /// order), at most `limit` of them and `FolderWalk.depth` folders deep.
    func audioFiles(under directory: String, limit: Int) -> [String]
}

/// A folder's rows in the browser's order, and the bounds of a walk down it (`AudioFolderWalk`).
public enum FolderWalk {
    public static let depth = AudioFolderWalk.depth
    public static let limit = AudioFolderWalk.limit

    /// A folder's folders, then its files, each in natural order ("2" before "10").
    public static func ordered(_ entries: [BrowserEntry]) -> [BrowserEntry] {
        // Each name split and folded once, not at every comparison.
        entries.map { (entry: $0, key: NaturalOrder.Key($0.name)) }.sorted { lhs, rhs in
            if lhs.entry.isDirectory != rhs.entry.isDirectory { return lhs.entry.isDirectory }
            return NaturalOrder.areInIncreasingOrder(lhs.key, rhs.key, names: (lhs.entry.name, rhs.entry.name))
        }.map(\.entry)
    }
}

extension BrowserSource {
    public func audioFiles(under directory: String, limit: Int) -> [String] {
        var files: [String] = []
        func walk(_ folder: String, depth: Int) {
            guard depth <= FolderWalk.depth, files.count < limit else { return }
            for entry in FolderWalk.ordered(entries(in: folder) ?? []) {
                guard files.count < limit else { return }
                if entry.isDirectory { walk(entry.path, depth: depth + 1) } else { files.append(entry.path) }
            }
        }
        walk(directory, depth: 0)
        return files
    }
}

/// The browser pane: a folder's contents (folders first, then audio files, each in
/// natural order: "2" before "10"), the selection, and the `/` filter.
public struct BrowserModel {
    public private(set) var directory: String
    public private(set) var all: [BrowserEntry] = []
    public private(set) var filter = ""
    public var cursor = ListCursor()
    /// Set when the folder could not be read.
    public private(set) var problem: String?
    /// The folder the browser started in (the music folder, or the folder given).
    public let root: String
    /// The books folder (`books` in the config, else ~/Audiobooks): a root of
    /// its own, reached from the top of the music folder and back.
    public let books: String?
    /// The home folder, where `~` goes.
    public let home: String?

    /// Starts at `root`, its first entry selected (below the ways up and to the other root).
    public init(root: String, books: String? = nil, home: String? = nil, source: some BrowserSource) {
        self.root = Self.normalized(root)
        self.books = books.map(Self.normalized).flatMap { $0 == Self.normalized(root) ? nil : $0 }
        self.home = home.map(Self.normalized)
        directory = self.root
        load(source)
        let rows = visible
        cursor.select(navigation.count, count: rows.count)
    }

    /// The rows before the folder's entries: `..` (but at `/`), and at the top
    /// of the music folder or the books folder the way to the other.
    public var navigation: [BrowserEntry] {
        var rows = directory == "/" ? [] : [BrowserEntry.parent(of: directory)]
        if let books {
            if directory == root { rows.append(.shortcut("books", to: books, home: home)) }
            if directory == books { rows.append(.shortcut("music", to: root, home: home)) }
        }
        return rows
    }

    /// The rows shown: the ways up and across (`navigation`), then the filtered entries.
    public var visible: [BrowserEntry] {
        let matching = filter.isEmpty ? all : all.filter { Self.matches($0, filter) }
        return navigation + matching
    }

    public var selected: BrowserEntry? {
        let rows = visible
        return rows.indices.contains(cursor.selection) ? rows[cursor.selection] : nil
    }

    /// Filters the entries; the first that matches is selected.
    public mutating func setFilter(_ text: String) {
        filter = text
        let rows = visible
        cursor.select(rows.count > navigation.count ? navigation.count : 0, count: rows.count)
    }

    /// Goes to `folder` (the home folder's `~`), its first entry selected.
    public mutating func go(to folder: String, source: some BrowserSource) {
        directory = Self.normalized(folder)
        filter = ""
        load(source)
        let rows = visible
        cursor.select(rows.count > navigation.count ? navigation.count : 0, count: rows.count)
    }

    /// Opens a folder (a `..` row included); keeps the selection on the folder
    /// just left when going up.
    public mutating func enter(_ entry: BrowserEntry, source: some BrowserSource) {
        guard entry.isDirectory else { return }
        let left = directory
        directory = Self.normalized(entry.path)
        filter = ""
        load(source)
        let rows = visible
        cursor.select(rows.firstIndex { $0.path == left } ?? 0, count: rows.count)
    }

    /// The book a file belongs to, when it opens as one: a file in the books
    /// folder is its folder's book (the file itself when it lies loose
    /// there); an M4B is a book of its own anywhere. Nil for music.
    public func book(containing entry: BrowserEntry) -> String? {
        guard !entry.isDirectory else { return nil }
        if let books, directory == books || directory.hasPrefix(books + "/") {
            return directory == books ? entry.path : directory
        }
        return entry.name.lowercased().hasSuffix(".m4b") ? entry.path : nil
    }

    /// Every MP3 in the current view (what Enter on a file queues: the file and the ones after it).
    public var files: [BrowserEntry] { visible.filter { !$0.isDirectory } }

    private mutating func load(_ source: some BrowserSource) {
        if let entries = source.entries(in: directory) {
            problem = nil
            all = FolderWalk.ordered(entries)
        } else {
            problem = "cannot read folder \(directory)"
            all = []
        }
        cursor = ListCursor()
    }

    static func matches(_ entry: BrowserEntry, _ filter: String) -> Bool {
        let needle = filter.lowercased()
        return entry.title.lowercased().contains(needle) || entry.name.lowercased().contains(needle)
            || entry.artist.lowercased().contains(needle)
    }

    static func normalized(_ path: String) -> String {
        guard path.count > 1 else { return path }
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
