import Foundation
import Testing
import TestSupport

/// Files tagged at test time by real taggers built on
/// other libraries than ours (TagLib's kid3-cli, id3lib's id3v2, eyeD3,
/// ffmpeg's libavformat, mutagen, and ID3v2.2 and quirky 2.3/2.4 tags built
/// byte by byte from the specifications), each ID3 version each writes; the
/// "tags" object of `interlude info --json` must equal mutagen's reading of
/// the same file (Tests/Fixtures/read_tags.py), field for field, lists as
/// lists. Each tagger must also really have written the fields it was asked
/// for (`wrote`), or the comparison would prove nothing about them.
@Suite struct TaggerAgreementTests {
    struct Tagging: Sendable, CustomTestStringConvertible {
        let name: String
        /// The ID3v2 major version the file's header must carry (0: not ID3).
        let version: UInt8
        /// The fields mutagen must find (what this tagger can write).
        let wrote: [String]
        let write: @Sendable (_ path: String, _ scratch: String) throws -> Void

        var testDescription: String { name }
    }

    static let root = InterludeBinary.packageRoot
    static let python = ["PYTHONPATH": "\(root)/build/python"]

    /// Every field of point 1 that a tagger with a free hand writes.
    static let everyField = ["title", "artists", "album", "albumArtists", "trackNumber", "trackTotal", "discNumber",
                             "discTotal", "date", "year", "genres", "comment", "trackGain"]

    static func variant(_ kind: String, version: UInt8, wrote: [String]) -> Tagging {
        Tagging(name: "built \(kind)", version: version, wrote: wrote) { path, _ in
            let source = path + ".source.mp3"
            try FileManager.default.moveItem(atPath: path, toPath: source)
            try ProcessRunner.check("python3", ["\(root)/Tests/Fixtures/write_id3_variants.py", kind, source, path], environment: python)
        }
    }

    /// kid3-cli, over TagLib: "|" separates a list's values (2.4 and 2.3 alike
    /// get NUL-separated lists; 2.3's genres as "(17)(49)"); every field but
    /// the recording's UFID, which its frame names do not reach. Its settings
    /// (the ID3v2 version) go to $HOME/.config, here a scratch folder.
    static func kid3(version: UInt8) -> Tagging {
        Tagging(name: "kid3-cli (TagLib) ID3v2.\(version)", version: version,
                wrote: everyField + ["musicBrainzAlbumId", "musicBrainzArtistIds"]) { path, scratch in
            let commands = [
                "config Tag.id3v2Version ID3v2_\(version)_0",
                "set title 'Ünïcödé full'", "set artist 'Mary Shelley|Percy Shelley'", "set album 'the album'",
                "set 'album artist' 'the album artist'", "set track '2/3'", "set 'disc number' '4/5'",
                "set date '2001-05-03'", "set genre 'Rock|Gothic'", "set comment 'a comment'",
                "set REPLAYGAIN_TRACK_GAIN '-6.50 dB'", "set REPLAYGAIN_ALBUM_PEAK '0.750000'",
                "set 'MusicBrainz Album Id' 'f1e2d3c4-0000-4000-8000-00000000a1b1'",
                "set 'MusicBrainz Artist Id' 'a1a1a1a1-0000-4000-8000-000000000001'", "save",
            ]
            try ProcessRunner.check("kid3-cli", commands.flatMap { ["-c", $0] } + [path],
                                    environment: ["HOME": scratch, "XDG_CONFIG_HOME": scratch + "/.config"])
        }
    }

    /// id3v2, over id3lib: ID3v2.3 only; one value per field (no lists), a
    /// numbered genre, the date only as a year (TYER), one TXXX (ReplayGain),
    /// so no MusicBrainz ids.
    static let id3lib = Tagging(name: "id3v2 (id3lib) ID3v2.3", version: 3,
                                wrote: everyField) { path, _ in
        try ProcessRunner.check("id3v2", ["--id3v2-only", "-t", "Ünïcödé full", "-a", "the artist", "-A", "the album",
                                          "-y", "2001", "-T", "2/3", "-g", "17", "-c", "a comment", "--TPE2", "the album artist",
                                          "--TPOS", "4/5", "--TXXX", "REPLAYGAIN_TRACK_GAIN:-6.50 dB", path])
    }

    /// eyeD3: one value per field (no lists); the recording date (2.3: TYER
    /// and TDAT), ReplayGain and MusicBrainz's album in TXXX, the recording in UFID.
    static func eyeD3(version: UInt8) -> Tagging {
        Tagging(name: "eyeD3 ID3v2.\(version)", version: version,
                wrote: everyField + ["musicBrainzAlbumId", "musicBrainzRecordingId"]) { path, _ in
            try ProcessRunner.check("eyeD3", ["-Q", "--to-v2.\(version)", "-t", "Ünïcödé full", "-a", "the artist",
                                              "-A", "the album", "-b", "the album artist", "-n", "2", "-N", "3", "-d", "4",
                                              "-D", "5", "-G", "Rock", "--recording-date", "2001-05-03", "-c", "a comment",
                                              "--user-text-frame", "REPLAYGAIN_TRACK_GAIN:-6.50 dB",
                                              "--user-text-frame", "MusicBrainz Album Id:f1e2d3c4-0000-4000-8000-00000000a1b1",
                                              "--unique-file-id", "http\\://musicbrainz.org:d4d4d4d4-0000-4000-8000-000000000004",
                                              path])
        }
    }

    /// ffmpeg (libavformat's ID3v2 writer): every value ends in its
    /// terminator (the bug); one value per key (no lists); its keys
    /// beyond its own table become TXXX frames (ReplayGain, MusicBrainz's
    /// album, and `comment` too: it writes no COMM, so there is no comment);
    /// no UFID.
    static func ffmpeg(version: UInt8) -> Tagging {
        Tagging(name: "ffmpeg ID3v2.\(version)", version: version,
                wrote: everyField.filter { $0 != "comment" } + ["musicBrainzAlbumId"]) { path, _ in
            let source = path + ".source.mp3"
            try FileManager.default.moveItem(atPath: path, toPath: source)
            let metadata = ["title=Ünïcödé full", "artist=the artist", "album=the album", "album_artist=the album artist",
                            "track=2/3", "disc=4/5", "date=2001-05-03", "genre=Rock", "comment=a comment", "REPLAYGAIN_TRACK_GAIN=-6.50 dB",
                            "MusicBrainz Album Id=f1e2d3c4-0000-4000-8000-00000000a1b1"]
            try ProcessRunner.check("ffmpeg", ["-loglevel", "error", "-y", "-i", source, "-c", "copy"]
                                    + metadata.flatMap { ["-metadata", $0] } + ["-id3v2_version", "\(version)", path])
        }
    }

    static let taggings: [Tagging] = [
        // mutagen's own writing: 2.4 lists (NUL-separated, no terminator), 2.3 "/"-joined ones.
        variant("mutagen-v24", version: 4, wrote: everyField + ["musicBrainzAlbumId", "musicBrainzArtistIds", "musicBrainzRecordingId",
                                                                "musicBrainzReleaseGroupId", "trackPeak"]),
        variant("mutagen-v23", version: 3, wrote: everyField + ["musicBrainzAlbumId", "musicBrainzRecordingId"]),
        // The file: Latin-1 values ending in NUL, plain frame sizes (iTunes).
        variant("itunes-v24", version: 4, wrote: everyField + ["albumGain", "albumPeak"]),
        variant("lists-v24", version: 4, wrote: everyField + ["musicBrainzAlbumId", "musicBrainzArtistIds", "musicBrainzAlbumArtistIds",
                                                              "musicBrainzRecordingId", "musicBrainzReleaseGroupId", "trackPeak"]),
        variant("quirks-v23", version: 3, wrote: everyField + ["musicBrainzAlbumId", "musicBrainzRecordingId"]),
        variant("v22", version: 2, wrote: everyField + ["musicBrainzAlbumId", "musicBrainzRecordingId"]),
        variant("v22-unsync", version: 2, wrote: everyField + ["musicBrainzAlbumId", "musicBrainzRecordingId"]),
        kid3(version: 3), kid3(version: 4),
        id3lib,
        eyeD3(version: 3), eyeD3(version: 4),
        ffmpeg(version: 3), ffmpeg(version: 4),
    ]

    @Test(arguments: taggings)
    func infoReadsWhatMutagenReads(tagging: Tagging) throws {
        let scratch = ScratchFiles.makeDirectory("tagger")
        let path = scratch + "/tagged.mp3"
        let tone = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 1, encoding: .cbr(kbps: 64))
        try FileManager.default.copyItem(atPath: tone, toPath: path)
        try tagging.write(path, scratch)
        let header = try #require(FileManager.default.contents(atPath: path)?.prefix(4))
        #expect(Array(header) == Array("ID3".utf8) + [tagging.version], "\(tagging.name) wrote \(Array(header))")
        try Self.expectAgreement(path: path, wrote: tagging.wrote)
    }

    /// mutagen's reading (read_tags.py) and `info --json`'s "tags", compared
    /// as JSON values; the fields in `wrote` must be in mutagen's.
    static func expectAgreement(path: String, wrote: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let oracle = try mutagenReading(path)
        for field in wrote {
            #expect(oracle[field] != nil, "mutagen finds no \(field) in \(path): \(oracle)", sourceLocation: sourceLocation)
        }
        let result = try InterludeBinary.run(["info", path, "--json"])
        #expect(result.succeeded, "\(result.summary)", sourceLocation: sourceLocation)
        let info = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        let ours = try #require(info?["tags"] as? [String: Any], "\(result.stdoutText)")
        for key in Set(oracle.keys).union(ours.keys).sorted() {
            let same = (oracle[key] as? NSObject).map { mine in (ours[key] as? NSObject).map { mine.isEqual($0) } ?? false } ?? false
            #expect(same, "\(key): interlude \(String(describing: ours[key])), mutagen \(String(describing: oracle[key]))",
                    sourceLocation: sourceLocation)
        }
    }

    static func mutagenReading(_ path: String) throws -> [String: Any] {
        let result = try ProcessRunner.check("python3", ["\(root)/Tests/Fixtures/read_tags.py", path], environment: python)
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    }
}

/// Acceptance 1's other half: several artists and genres in Vorbis comments
/// (metaflac, vorbiscomment: a name given twice) and MP4 atoms (mutagen: a
/// text item with several `data` boxes; AtomicParsley: `gnre`'s number),
/// compared with mutagen's reading the same way.
@Suite struct MultiValueContainerTests {
    static let vorbisFields = ["ARTIST=Mary Shelley", "ARTIST=Percy Shelley", "GENRE=Gothic", "GENRE=Horror",
                               "ALBUMARTIST=the album artist", "ALBUMARTIST=another album artist", "TITLE=Ünïcödé full",
                               "ALBUM=the album", "TRACKNUMBER=2", "TRACKTOTAL=3", "DISCNUMBER=4/5", "DATE=2001-05-03",
                               "MUSICBRAINZ_ARTISTID=a1a1a1a1-0000-4000-8000-000000000001",
                               "MUSICBRAINZ_ARTISTID=b2b2b2b2-0000-4000-8000-000000000002",
                               "MUSICBRAINZ_TRACKID=d4d4d4d4-0000-4000-8000-000000000004",
                               "REPLAYGAIN_TRACK_GAIN=-6.50 dB"]
    static let lists = ["artists", "genres", "albumArtists", "musicBrainzArtistIds"]

    static func expectLists(_ path: String) throws {
        let oracle = try TaggerAgreementTests.mutagenReading(path)
        for list in Self.lists { #expect((oracle[list] as? [String])?.count == 2, "\(list) in \(oracle)") }
        try TaggerAgreementTests.expectAgreement(path: path, wrote: ["title", "album", "trackNumber", "date"])
    }

    @Test func metaflacsRepeatedNamesAreLists() throws {
        let wav = try Fixtures.wav(.sweep, seconds: 1, sampleRate: 44100, channels: 1)
        let path = ScratchFiles.makeDirectory("metaflac") + "/tagged.flac"
        try ProcessRunner.check("flac", ["--silent", "-o", path, wav])
        try ProcessRunner.check("metaflac", Self.vorbisFields.map { "--set-tag=\($0)" } + [path])
        try Self.expectLists(path)
    }

    @Test func vorbiscommentsRepeatedNamesAreLists() throws {
        let wav = try Fixtures.wav(.sweep, seconds: 1, sampleRate: 44100, channels: 1)
        let path = ScratchFiles.makeDirectory("vorbiscomment") + "/tagged.ogg"
        try ProcessRunner.check("oggenc", ["--quiet", "-o", path, wav])
        try ProcessRunner.check("vorbiscomment", ["-w"] + Self.vorbisFields.flatMap { ["-t", $0] } + [path])
        try Self.expectLists(path)
    }

    static func aac() throws -> String {
        let wav = try Fixtures.wav(.sweep, seconds: 1, sampleRate: 44100, channels: 1)
        let path = ScratchFiles.makeDirectory("mp4-tags") + "/tagged.m4a"
        try ProcessRunner.check("ffmpeg", ["-loglevel", "error", "-y", "-i", wav, "-c:a", "aac", "-b:a", "64k", path])
        return path
    }

    @Test func mutagensSeveralDataAtomsAreLists() throws {
        let path = try Self.aac()
        let script = """
        import sys
        from mutagen.mp4 import MP4, MP4FreeForm
        audio = MP4(sys.argv[1])
        audio["\\xa9nam"] = "Ünïcödé full"
        audio["\\xa9ART"] = ["Mary Shelley", "Percy Shelley"]
        audio["aART"] = ["the album artist", "another album artist"]
        audio["\\xa9alb"] = "the album"
        audio["\\xa9gen"] = ["Gothic", "Horror"]
        audio["trkn"] = [(2, 3)]
        audio["disk"] = [(4, 5)]
        audio["\\xa9day"] = "2001-05-03"
        audio["----:com.apple.iTunes:MusicBrainz Artist Id"] = [MP4FreeForm(b"a1a1a1a1-0000-4000-8000-000000000001"),
                                                               MP4FreeForm(b"b2b2b2b2-0000-4000-8000-000000000002")]
        audio["----:com.apple.iTunes:MusicBrainz Album Id"] = [MP4FreeForm(b"f1e2d3c4-0000-4000-8000-00000000a1b1")]
        audio["----:com.apple.iTunes:replaygain_track_gain"] = [MP4FreeForm(b"-6.50 dB")]
        audio.save()
        """
        try ProcessRunner.check("python3", ["-c", script, path], environment: TaggerAgreementTests.python)
        try Self.expectLists(path)
    }

    /// AtomicParsley writes one artist and a standard genre as `gnre`, ID3v1's number plus one.
    @Test func atomicParsleysGenreNumberIsItsName() throws {
        let path = try Self.aac()
        try ProcessRunner.check("AtomicParsley", [path, "--overWrite", "--title", "Ünïcödé full", "--artist", "Mary Shelley",
                                                  "--album", "the album", "--albumArtist", "the album artist",
                                                  "--genre", "Gothic", "--tracknum", "2/3", "--disk", "4/5", "--year", "2001"])
        let oracle = try TaggerAgreementTests.mutagenReading(path)
        #expect(oracle["genres"] as? [String] == ["Gothic"], "\(oracle)")
        try TaggerAgreementTests.expectAgreement(path: path, wrote: ["title", "artists", "album", "albumArtists", "trackNumber",
                                                                     "trackTotal", "discNumber", "discTotal", "date", "genres"])
    }
}
