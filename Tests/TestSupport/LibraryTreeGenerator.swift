import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a music library of small tagged MP3s for the library's tests and
/// `make bench`: one short LAME-encoded frame run (made once with sox and
/// lame) copied into every file behind the file's own ID3v2.4 tag. Titles
/// rotate through the three text encodings a scanner meets (Latin-1,
/// UTF-16 with a byte-order mark, UTF-8), a share of artists, albums and
/// titles are CJK or accented, and albums number a tenth of the files,
/// artists a twentieth (100,000 files: 10,000 albums by 5,000 artists).
/// Every 97th album is a compilation: its tracks have different artists and
/// no album artist. Layout: `ROOT/ARTIST/YEAR ALBUM/NN TITLE.mp3`.
public struct LibraryTreeGenerator {
    /// What each file's tag says, for tests to check the index against.
    public struct Entry: Sendable, Equatable {
        public let path: String
        public let title: String
        public let artist: String
        public let album: String
        public let albumArtist: String?
        public let year: Int
        public let trackNumber: Int
        public let genre: String
    }

    public let root: String
    public let fileCount: Int
    public var artistCount: Int
    public var albumCount: Int

    public init(root: String, fileCount: Int) {
        self.root = root
        self.fileCount = fileCount
        albumCount = max(1, fileCount / 10)
        artistCount = max(1, fileCount / 20)
    }

    /// The frame run every file carries: 0.2 s of a mono tone at 64 kbit/s.
    public static func frameRun() throws -> [UInt8] {
        let path = try Fixtures.mp3(.tone(frequency: 440), seconds: 0.2, sampleRate: 44100, channels: 1, encoding: .cbr(kbps: 64))
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ProcessError.notReady("cannot read \(path)")
        }
        return [UInt8](data)
    }

    public static let genres = ["Rock", "Jazz", "Électronique", "Classical", "民謡", "Hip-Hop", "Folk", "Ambient"]

    public func artistName(_ index: Int) -> String {
        switch index % 10 {
        case 3: "Zoë Ñandú \(index)"
        case 7: "歌手 \(index) 東京"
        default: "Artist \(index)"
        }
    }

    public func albumTitle(_ index: Int) -> String {
        switch index % 8 {
        case 5: "東方の音 \(index)"
        case 2: "Café Crème \(index)"
        default: "Album \(index)"
        }
    }

    public func entry(_ number: Int) -> Entry {
        let album = number % albumCount
        let trackNumber = number / albumCount + 1
        let compilation = album % 97 == 0 && fileCount >= 20
        let albumArtistIndex = album % artistCount
        let artistIndex = compilation ? (album + trackNumber * 7) % artistCount : albumArtistIndex
        let title: String = switch number % 6 {
        case 1: "曲 \(number) さくら"
        case 4: "Chanson n°\(number) été"
        default: "Track \(number) Song"
        }
        let albumName = albumTitle(album)
        let year = 1960 + album % 60
        let folder = "\(root)/\(safe(compilation ? "Compilations" : artistName(albumArtistIndex)))/\(year) \(safe(albumName))"
        let twoDigits = trackNumber < 10 ? "0\(trackNumber)" : "\(trackNumber)"
        return Entry(path: "\(folder)/\(twoDigits) \(safe(title)).mp3", title: title, artist: artistName(artistIndex),
                     album: albumName, albumArtist: album % 5 == 1 ? artistName(albumArtistIndex) : nil,
                     year: year, trackNumber: trackNumber, genre: Self.genres[album % Self.genres.count])
    }

    /// Writes every file (folders made as needed) and returns what each says.
    @discardableResult
    public func write(frameRun: [UInt8]) throws -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(fileCount)
        var madeFolders: Set<String> = []
        for number in 0..<fileCount {
            let entry = entry(number)
            let folder = String(entry.path[..<entry.path.lastIndex(of: "/")!])
            if madeFolders.insert(folder).inserted {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            var bytes = tag(entry, encoding: number % 3)
            bytes += frameRun
            try Self.writeFile(entry.path, bytes)
            entries.append(entry)
        }
        return entries
    }

    /// `encoding` 0: Latin-1 where the text fits it (else UTF-16), 1: UTF-16, 2: UTF-8.
    public func tag(_ entry: Entry, encoding: Int) -> [UInt8] {
        var frames: [UInt8] = []
        func text(_ id: String, _ value: String) {
            var body: [UInt8]
            if encoding == 0, value.unicodeScalars.allSatisfy({ $0.value < 0x100 }) {
                body = [0] + value.unicodeScalars.map { UInt8($0.value) }
            } else if encoding == 2 {
                body = [3] + Array(value.utf8)
            } else {
                body = [1, 0xFF, 0xFE]
                for unit in value.utf16 { body += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            }
            frames += Array(id.utf8) + Self.syncsafe(body.count) + [0, 0] + body
        }
        text("TIT2", entry.title)
        text("TPE1", entry.artist)
        text("TALB", entry.album)
        if let albumArtist = entry.albumArtist { text("TPE2", albumArtist) }
        text("TRCK", "\(entry.trackNumber)/\(fileCount / albumCount)")
        text("TDRC", "\(entry.year)")
        text("TCON", entry.genre)
        return Array("ID3".utf8) + [4, 0, 0] + Self.syncsafe(frames.count) + frames
    }

    static func syncsafe(_ value: Int) -> [UInt8] {
        [UInt8((value >> 21) & 0x7F), UInt8((value >> 14) & 0x7F), UInt8((value >> 7) & 0x7F), UInt8(value & 0x7F)]
    }

    /// A tag's text as a file name: no slashes.
    func safe(_ text: String) -> String {
        String(text.map { $0 == "/" ? "-" : $0 })
    }

    static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ProcessError.notReady("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw ProcessError.notReady("cannot write \(path): \(String(cString: strerror(errno)))") }
            offset += written
        }
    }
}
