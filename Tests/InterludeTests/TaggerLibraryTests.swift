import Foundation
import MusicLibrary
import Testing
import TestSupport
@testable import Interlude

/// Issue 32, acceptance 2: a library of files tagged by real taggers (ffmpeg,
/// whose ID3v2.4 values end in their terminator; TagLib's kid3-cli; id3lib's
/// id3v2; eyeD3; metaflac; mutagen's MP4), where all of them spell one
/// artist: the scanner's index gives a tree with that artist once, its album's
/// tracks in track order; an album of two artists (kid3's ID3v2.4 list,
/// metaflac's two ARTIST comments, mutagen's two `©ART` data boxes) is under
/// either artist and found by searching either, in the index and through
/// the real binary's `library search`.
@Suite(.serialized) struct TaggerLibraryTests {
    static let artist = "Mary Shelley"
    static let album = "Frankenstein"

    struct Library {
        let root: String
        /// Frankenstein's files, in track order (track i+1 is element i).
        let novel: [String]
        let duets: [String]
    }

    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        try ProcessRunner.check(tool, arguments, environment: environment)
    }

    static func makeLibrary() throws -> Library {
        let directory = ScratchFiles.makeDirectory("tagger-library")
        let root = directory + "/music"
        for folder in ["Frankenstein", "Duets"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true)
        }
        let wav = try Fixtures.wav(.sweep, seconds: 1, sampleRate: 44100, channels: 1)
        let mp3 = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 1, encoding: .cbr(kbps: 64))
        let kid3Home = ["HOME": directory, "XDG_CONFIG_HOME": directory + "/.config"]
        func copy(_ name: String) throws -> String {
            let path = "\(root)/\(name)"
            try FileManager.default.copyItem(atPath: mp3, toPath: path)
            return path
        }
        func flac(_ name: String, _ tags: [String]) throws -> String {
            let path = "\(root)/\(name)"
            try run("flac", ["--silent", "-o", path, wav])
            try run("metaflac", tags.map { "--set-tag=\($0)" } + [path])
            return path
        }
        func mp4(_ name: String, artists: [String], album: String, track: Int, total: Int) throws -> String {
            let path = "\(root)/\(name)"
            try run("ffmpeg", ["-loglevel", "error", "-y", "-i", wav, "-c:a", "aac", "-b:a", "64k", path])
            try run("python3", ["-c", """
                import sys, json
                from mutagen.mp4 import MP4
                audio = MP4(sys.argv[1])
                audio["\\xa9ART"] = json.loads(sys.argv[2])
                audio["\\xa9alb"] = sys.argv[3]
                audio["trkn"] = [(int(sys.argv[4]), int(sys.argv[5]))]
                audio.save()
                """, path, String(decoding: try JSONSerialization.data(withJSONObject: artists), as: UTF8.self), album, "\(track)", "\(total)"],
                environment: ["PYTHONPATH": InterludeBinary.packageRoot + "/build/python"])
            return path
        }
        // Frankenstein: six files, six taggers, one artist; named so that file order is not track order.
        let ffmpegFile = "\(root)/Frankenstein/a-ffmpeg.mp3"
        try run("ffmpeg", ["-loglevel", "error", "-y", "-i", mp3, "-c", "copy", "-metadata", "artist=\(artist)",
                           "-metadata", "album=\(album)", "-metadata", "track=4/6", "-metadata", "title=ffmpeg's",
                           "-id3v2_version", "4", ffmpegFile])
        let kid3File = try copy("Frankenstein/b-kid3.mp3")
        try run("kid3-cli", ["-c", "config Tag.id3v2Version ID3v2_4_0", "-c", "set artist '\(artist)'", "-c", "set album '\(album)'",
                             "-c", "set track '2/6'", "-c", "set title 'kid3s'", "-c", "save", kid3File], environment: kid3Home)
        let id3libFile = try copy("Frankenstein/c-id3v2.mp3")
        try run("id3v2", ["--id3v2-only", "-a", artist, "-A", album, "-T", "6/6", "-t", "id3libs", id3libFile])
        let eyeD3File = try copy("Frankenstein/d-eyed3.mp3")
        try run("eyeD3", ["-Q", "--to-v2.3", "-a", artist, "-A", album, "-n", "1", "-N", "6", "-t", "eyeD3s", eyeD3File])
        let flacFile = try flac("Frankenstein/e.flac", ["ARTIST=\(artist)", "ALBUM=\(album)", "TRACKNUMBER=5", "TRACKTOTAL=6", "TITLE=metaflacs"])
        let mp4File = try mp4("Frankenstein/f.m4a", artists: [artist], album: album, track: 3, total: 6)

        // Duets: two artists in each tagger's list form.
        let kid3Duet = try copy("Duets/1.mp3")
        try run("kid3-cli", ["-c", "config Tag.id3v2Version ID3v2_4_0", "-c", "set artist '\(artist)|Percy Shelley'",
                             "-c", "set album 'Duets'", "-c", "set track '1/3'", "-c", "save", kid3Duet], environment: kid3Home)
        let flacDuet = try flac("Duets/2.flac", ["ARTIST=\(artist)", "ARTIST=Percy Shelley", "ALBUM=Duets", "TRACKNUMBER=2"])
        let mp4Duet = try mp4("Duets/3.m4a", artists: [artist, "Percy Shelley"], album: "Duets", track: 3, total: 3)
        return Library(root: root, novel: [eyeD3File, kid3File, mp4File, ffmpegFile, flacFile, id3libFile],
                       duets: [kid3Duet, flacDuet, mp4Duet])
    }

    @Test func oneArtistOnceInTrackOrderAndADuetUnderEitherArtist() throws {
        let library = try Self.makeLibrary()
        let index = try LibraryIndex(path: library.root + "/../cache/library.sqlite")
        var problems: [String] = []
        let result = try LibraryScanner(folders: [library.root]).run(index: index) { problems.append($0) }
        #expect(problems.isEmpty, "\(problems)")
        #expect(result.read == 9)

        let tree = LibraryTree(tracks: try index.allTracks())
        #expect(tree.artists.map(\.name) == [Self.artist, "Percy Shelley"])
        let mary = try #require(tree.artists.first)
        #expect(mary.albums.map(\.title).sorted() == ["Duets", Self.album])
        let novel = try #require(mary.albums.first { $0.title == Self.album })
        #expect(novel.tracks.map(\.path) == library.novel)
        #expect(novel.tracks.map(\.trackNumber) == [1, 2, 3, 4, 5, 6])
        #expect(Set(novel.tracks.map(\.artist)) == [Self.artist])
        let percy = tree.artists[1]
        #expect(percy.albums.map(\.title) == ["Duets"])
        #expect(percy.albums.first?.tracks.map(\.path) == library.duets)
        #expect(percy.albums.first?.tracks.map(\.artists) == Array(repeating: [Self.artist, "Percy Shelley"], count: 3))

        // The unfiltered tree of a big library (the catalog) says the same.
        let catalog = try index.catalog()
        #expect(catalog.artists.map(\.name) == tree.artists.map(\.name))
        #expect(catalog.artists.map(\.tracks) == [9, 3])
        #expect(catalog.trackCount == 9)

        for query in ["artist:percy", "percy", "artist:\"percy shelley\""] {
            #expect(Set(try index.search(LibraryQuery(query)).map(\.path)) == Set(library.duets), "\(query)")
        }
        #expect(Set(try index.search(LibraryQuery("artist:mary")).map(\.path)) == Set(library.novel + library.duets))
    }

    /// The same through the real binary: `library scan`, then `library search --json`.
    @Test func theBinaryFindsADuetBySearchingEitherArtist() throws {
        let library = try Self.makeLibrary()
        let directory = library.root + "/.."
        try FileManager.default.createDirectory(atPath: directory + "/config/interlude", withIntermediateDirectories: true)
        try "library = \(library.root)\n".write(toFile: directory + "/config/interlude/config", atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": directory + "/config", "XDG_CACHE_HOME": directory + "/cache", "HOME": directory]
        let scan = try InterludeBinary.run(["library", "scan", "--json"], environment: environment)
        #expect(scan.succeeded, "\(scan.summary)")
        for artist in ["mary", "percy"] {
            let search = try InterludeBinary.run(["library", "search", "artist:\(artist)", "album:duets", "--json"], environment: environment)
            #expect(search.succeeded, "\(search.summary)")
            let rows = search.stdoutText.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(Set(rows.compactMap { $0["path"] as? String }) == Set(library.duets), "\(artist): \(search.stdoutText)")
            for row in rows { #expect(row["artists"] as? [String] == [Self.artist, "Percy Shelley"], "\(row)") }
        }
    }
}
