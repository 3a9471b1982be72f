import Foundation
import Testing
@testable import BookFormat

/// ID3v1's genre table and TCON's numbered
/// genres read as mutagen reads them (mutagen, run at test time, is the
/// oracle), ID3v2.2's frames under their 2.3 names, 2.3's date in three frames.
struct ID3GenreAndVersionTests {
    /// What `script` writes as JSON to `sys.argv[1]`; `sys.argv[2:]` are `arguments`.
    static func mutagen(_ script: String, arguments: [String] = []) throws -> [String] {
        let output = ExternalTool.packageRoot + "/build/fixtures/genres-\(UUID().uuidString).json"
        try FileManager.default.createDirectory(atPath: ExternalTool.packageRoot + "/build/fixtures", withIntermediateDirectories: true)
        try ExternalTool.run(["python3", "-c", script, output] + arguments, environment: ["PYTHONPATH": ExternalTool.packageRoot + "/build/python"])
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        try? FileManager.default.removeItem(atPath: output)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String])
    }

    @Test func theGenreTableIsMutagensNameForName() throws {
        let names = try Self.mutagen("""
            import json, sys
            from mutagen._constants import GENRES
            json.dump(list(GENRES), open(sys.argv[1], "w"))
            """)
        #expect(names.count == 192)
        #expect(ID3v1Genre.names == names)
    }

    static let tconValues = [
        "17", "(17)", "(17)Rock", "(17)Hard", "(17)(18)", "(17)(18)Hard", "(RX)", "(CR)", "RX", "CR", "Rock",
        "((Parenthesised)", "(255)", "(191)", "191", "255", "256", "(17", "0017", "(abc)Text", "(17)(RX)Remix",
        "Gothic", "()", "(1234)",
    ]

    @Test(arguments: tconValues)
    func numberedGenresAreNamedAsMutagenNamesThem(value: String) throws {
        let expected = try Self.mutagen("""
            import json, sys
            from mutagen.id3 import TCON
            json.dump(TCON(encoding=3, text=[sys.argv[2]]).genres, open(sys.argv[1], "w"))
            """, arguments: [value])
        #expect(ID3Genres.names([value]) == expected, "\(value)")
    }

    /// ID3v2.3's TYER, TDAT (day then month) and TIME as mutagen joins them
    /// into 2.4's TDRC (its `update_to_v24`, run here on each case).
    static let dateCases: [(year: String, dayMonth: String?, time: String?)] = [
        ("2001", nil, nil), ("2001", "0305", nil), ("2001", "0305", "1030"), ("2001", "35", "1030"), ("01", "0305", nil),
        ("2001-05-03", nil, nil), ("2001-05-03", "0706", nil), ("2001-05-03", nil, "1030"), ("2001-5-3", nil, nil),
        ("2001", nil, "1030"), ("20010", nil, nil), ("2001", "03x5", nil),
    ]

    @Test(arguments: 0..<dateCases.count)
    func version23DateFramesMakeOneDateAsMutagenMakesIt(index: Int) throws {
        let (year, dayMonth, time) = Self.dateCases[index]
        let expected = try Self.mutagen("""
            import json, sys
            from mutagen.id3 import ID3, TYER, TDAT, TIME
            tags = ID3()
            tags.add(TYER(encoding=0, text=sys.argv[2]))
            if sys.argv[3]: tags.add(TDAT(encoding=0, text=sys.argv[3]))
            if sys.argv[4]: tags.add(TIME(encoding=0, text=sys.argv[4]))
            tags.update_to_v24()
            dates = [t.text for t in tags["TDRC"].text] if "TDRC" in tags else []
            json.dump([d.replace(" ", "T") for d in dates], open(sys.argv[1], "w"))
            """, arguments: [year, dayMonth ?? "", time ?? ""])
        #expect(ID3v2TagFields.date(year: year, dayMonth: dayMonth, time: time) == expected.first, "\(Self.dateCases[index])")
    }

    static func frame22(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + [UInt8(body.count >> 16), UInt8(body.count >> 8 & 0xFF), UInt8(body.count & 0xFF)] + body
    }

    static func tag22(_ frames: [UInt8], flags: UInt8 = 0) -> [UInt8] {
        let size = frames.count + 16
        return Array("ID3".utf8) + [2, 0, flags, UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F),
                                     UInt8(size & 0x7F)] + frames + [UInt8](repeating: 0, count: 16)
    }

    @Test func version22FramesAreReadUnderTheir23Names() throws {
        let picture: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
        let frames = Self.frame22("TT2", [0] + Array("full".utf8) + [0]) + Self.frame22("TP1", [0] + Array("the artist".utf8) + [0])
            + Self.frame22("TRK", [0] + Array("2/3".utf8)) + Self.frame22("XYZ", [1, 2])
            + Self.frame22("PIC", [0] + Array("JPG".utf8) + [3] + Array("cover".utf8) + [0] + picture)
        let tag = try ID3v2Tag(bytes: Self.tag22(frames))
        #expect(tag.damage == nil)
        #expect(tag.frames.map(\.id) == ["TIT2", "TPE1", "TRCK", "XYZ", "APIC"])
        var reading = TagReading(wantedPicture: 0)
        ID3v2TagFields.read(tag, into: &reading)
        #expect(reading.tags.title == "full")
        #expect(reading.tags.artists == ["the artist"])
        #expect(reading.tags.track == AudioTags.Position(number: 2, total: 3))
        #expect(reading.tags.pictures.map(\.mimeType) == ["image/jpeg"])
        #expect(reading.loadedPicture == picture)
    }

    /// 2.2's compression flag: no scheme was ever defined, so no frame is read.
    @Test func aCompressedVersion22TagHasNoFrames() throws {
        let tag = try ID3v2Tag(bytes: Self.tag22(Self.frame22("TT2", [0] + Array("full".utf8)), flags: 0x40))
        #expect(tag.frames.isEmpty)
        #expect(tag.damage == .compressedTag)
    }
}
