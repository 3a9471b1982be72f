import Foundation

/// A library of files tagged by real taggers (ffmpeg, whose ID3v2.4
/// values end in their terminator; TagLib's kid3-cli; id3lib's id3v2; eyeD3;
/// metaflac; mutagen's MP4; an ID3v2.2 tag as old iTunes versions wrote it,
/// built byte by byte), made at test time: an album all of them file
/// under one artist, spelled alike by each, and an album of two artists in
/// each tagger's list form (kid3's ID3v2.4 list, metaflac's two ARTIST
/// comments, mutagen's two `©ART` data boxes).
public enum TaggerLibrary {
    public static let artist = "Mary Shelley"
    public static let album = "Frankenstein"

    public struct Library: Sendable {
        public let root: String
        /// Frankenstein's files, in track order (track i+1 is element i).
        public let novel: [String]
        public let duets: [String]
    }

    private static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        try ProcessRunner.check(tool, arguments, environment: environment)
    }

    public static func make() throws -> Library {
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
        func mp4(_ name: String, artists: [String], album: String, track: Int, total: Int, title: String) throws -> String {
            let path = "\(root)/\(name)"
            try run("ffmpeg", ["-loglevel", "error", "-y", "-i", wav, "-c:a", "aac", "-b:a", "64k", path])
            try run("python3", ["-c", """
                import sys, json
                from mutagen.mp4 import MP4
                audio = MP4(sys.argv[1])
                audio["\\xa9ART"] = json.loads(sys.argv[2])
                audio["\\xa9alb"] = sys.argv[3]
                audio["trkn"] = [(int(sys.argv[4]), int(sys.argv[5]))]
                audio["\\xa9nam"] = sys.argv[6]
                audio.save()
                """, path, String(decoding: try JSONSerialization.data(withJSONObject: artists), as: UTF8.self), album, "\(track)", "\(total)",
                title],
                environment: ["PYTHONPATH": InterludeBinary.packageRoot + "/build/python"])
            return path
        }
        // Frankenstein: seven files, seven taggers, one artist; named so that file order is not track order.
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
        let mp4File = try mp4("Frankenstein/f.m4a", artists: [artist], album: album, track: 3, total: 6, title: "mutagens")
        // ID3v2.2 as old iTunes versions wrote it, each value ending in its terminator (the "Mary Shelley\0").
        let itunesFile = "\(root)/Frankenstein/g-itunes.mp3"
        try run("python3", ["\(InterludeBinary.packageRoot)/Tests/Fixtures/write_id3_variants.py", "v22", mp3, itunesFile,
                            "TP1=\(artist)", "TP2=", "TAL=\(album)", "TRK=7/7", "TT2=itunes22s", "TPA=", "TYE=", "TDA="],
                environment: ["PYTHONPATH": InterludeBinary.packageRoot + "/build/python"])

        // Duets: two artists in each tagger's list form.
        let kid3Duet = try copy("Duets/1.mp3")
        try run("kid3-cli", ["-c", "config Tag.id3v2Version ID3v2_4_0", "-c", "set artist '\(artist)|Percy Shelley'",
                             "-c", "set album 'Duets'", "-c", "set track '1/3'", "-c", "save", kid3Duet], environment: kid3Home)
        let flacDuet = try flac("Duets/2.flac", ["ARTIST=\(artist)", "ARTIST=Percy Shelley", "ALBUM=Duets", "TRACKNUMBER=2"])
        let mp4Duet = try mp4("Duets/3.m4a", artists: [artist, "Percy Shelley"], album: "Duets", track: 3, total: 3, title: "duet three")
        return Library(root: root, novel: [eyeD3File, kid3File, mp4File, ffmpegFile, flacFile, id3libFile, itunesFile],
                       duets: [kid3Duet, flacDuet, mp4Duet])
    }
}
