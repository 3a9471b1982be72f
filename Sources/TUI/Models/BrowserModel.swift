import BookFormat

/// One row of the browser: a folder, or an MP3 with its tag title.
public struct BrowserEntry: Equatable, Sendable {
    public var name: String
    public var path: String
    public var isDirectory: Bool
    /// The tag title (or the file name when the file has none); for folders, the name.
    public var title: String
    public var artist: String

    public init(name: String, path: String, isDirectory: Bool, title: String? = nil, artist: String = "") {
        self.name = name
        self.path = path
        self.isDirectory = isDirectory
        self.title = title ?? name
        self.artist = artist
    }

    /// The parent-folder row at the top of every folder but the root.
    public static func parent(of directory: String) -> BrowserEntry {
        BrowserEntry(name: "..", path: BrowserModel.parent(of: directory), isDirectory: true, title: "..")
    }
}

/// Lists a folder: the seam between the browser and the file system.
public protocol BrowserSource {
    /// Folders and audio files directly in `directory`, in any order; nil when it cannot be read.
    func entries(in directory: String) -> [BrowserEntry]?
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
    /// The folder the browser started in: the tree the user asked for, so
    /// `..` is not offered above it.
    public let root: String

    public init(root: String, source: some BrowserSource) {
        self.root = Self.normalized(root)
        directory = self.root
        load(source)
    }

    /// The rows shown: the filtered entries, `..` first below the root.
    public var visible: [BrowserEntry] {
        let matching = filter.isEmpty ? all : all.filter { Self.matches($0, filter) }
        return directory == root ? matching : [BrowserEntry.parent(of: directory)] + matching
    }

    public var selected: BrowserEntry? {
        let rows = visible
        return rows.indices.contains(cursor.selection) ? rows[cursor.selection] : nil
    }

    public mutating func setFilter(_ text: String) {
        filter = text
        cursor.select(0, count: visible.count)
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

    /// Every MP3 in the current view (what Enter on a file queues: the file and the ones after it).
    public var files: [BrowserEntry] { visible.filter { !$0.isDirectory } }

    private mutating func load(_ source: some BrowserSource) {
        if let entries = source.entries(in: directory) {
            problem = nil
            all = entries.sorted { lhs, rhs in
                if lhs.isDirectory != rhs.isDirectory { return lhs.isDirectory }
                return NaturalOrder.areInIncreasingOrder(lhs.name, rhs.name)
            }
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
