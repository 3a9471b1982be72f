import Foundation
import Testing
@testable import BookFormat

/// What decides that libmpg123 takes a file (its start is MPEG
/// audio), the names of what nothing decodes, and APEv2 tags, over bytes.
@Suite struct MPEGAudioStartTests {
    /// MPEG-1 layer III, 128 kbit/s, 44.1 kHz, no padding: 417-byte frames.
    static let header: [UInt8] = [0xFF, 0xFB, 0x90, 0x64]

    static func frames(_ count: Int) -> [UInt8] {
        (0..<count).flatMap { _ in header + [UInt8](repeating: 0x55, count: 413) }
    }

    static func id3(bodyLength: Int) -> [UInt8] {
        let size = (0..<4).map { UInt8((bodyLength >> (7 * (3 - $0))) & 0x7F) }
        return Array("ID3".utf8) + [4, 0, 0] + size + [UInt8](repeating: 0, count: bodyLength)
    }

    static func starts(_ bytes: [UInt8]) -> Bool {
        MPEGAudioStart.isMPEGAudio { offset, count in
            offset < bytes.count ? Array(bytes[offset..<min(bytes.count, offset + count)]) : []
        }
    }

    @Test func theFrameHeaderGivesItsLength() throws {
        let header = try #require(MPEGFrameHeader(Self.header, at: 0))
        #expect(header.layer == 3 && header.sampleRate == 44100 && header.bitrate == 128 && header.frameLength == 417)
        // Free format, a reserved bitrate, rate or layer: no header.
        for bad: [UInt8] in [[0xFF, 0xFB, 0x00, 0x64], [0xFF, 0xFB, 0xF0, 0x64], [0xFF, 0xFB, 0x9C, 0x64], [0xFF, 0xF9, 0x90, 0x64]] {
            #expect(MPEGFrameHeader(bad, at: 0) == nil, "\(bad)")
        }
        #expect(MPEGFrameHeader(Self.header, at: 1) == nil)
    }

    @Test func framesAtTheStartOrAfterID3TagsAndZeroPaddingAreMPEGAudio() {
        #expect(Self.starts(Self.frames(20)))
        #expect(Self.starts(Self.id3(bodyLength: 300) + Self.frames(20)))
        #expect(Self.starts(Self.id3(bodyLength: 300) + Self.id3(bodyLength: 40) + Self.frames(20)))
        #expect(Self.starts(Self.id3(bodyLength: 300) + [UInt8](repeating: 0, count: 1000) + Self.frames(20)))
        // A file of one frame has no second header to agree.
        #expect(Self.starts(Self.frames(1)))
    }

    /// A stream recorded from its middle starts with the tail of a frame:
    /// less than a frame of other bytes, then a run of four frames or more.
    @Test func lessThanAFrameOfOtherBytesBeforeARunOfFramesIsMPEGAudio() {
        let tail = [UInt8](repeating: 0x37, count: 300)
        #expect(Self.starts(tail + Self.frames(20)))
        #expect(Self.starts(Self.id3(bodyLength: 30) + [0x01] + Self.frames(20)))
        // Three frames, then other data: too short a run after other bytes.
        #expect(!Self.starts(tail + Self.frames(3) + [UInt8](repeating: 0x37, count: 5000)))
        // A frame's worth of other bytes and more.
        #expect(!Self.starts([UInt8](repeating: 0x37, count: 3000) + Self.frames(20)))
    }

    @Test func aSyncAfterOtherDataIsNotMPEGAudio() {
        // An AIFF's header and PCM before a lone frame header: libmpg123 would resync to it.
        let aiff = Array("FORM".utf8) + [0, 0, 0x20, 0] + Array("AIFFCOMM".utf8) + [UInt8](repeating: 1, count: 42)
        #expect(!Self.starts(aiff + Self.header + [UInt8](repeating: 1, count: 413) + Self.header + [UInt8](repeating: 1, count: 8000)))
        #expect(!Self.starts(aiff + [UInt8](repeating: 1, count: 3000) + Self.frames(20)))
        // Zero padding past the limit.
        #expect(!Self.starts([UInt8](repeating: 0, count: 5000) + Self.frames(20)))
        // A first header whose next frame is not where it says.
        #expect(!Self.starts(Self.header + [UInt8](repeating: 0x55, count: 2000)))
        // A next header of another stream (MPEG-2 layer III, 22.05 kHz).
        #expect(!Self.starts(Self.header + [UInt8](repeating: 0x55, count: 413) + [0xFF, 0xF3, 0x90, 0x64] + [UInt8](repeating: 0, count: 3000)))
    }

    @Test func hostileTagSizesNeverTrap() {
        let huge = Array("ID3".utf8) + [4, 0, 0x10, 0x7F, 0x7F, 0x7F, 0x7F] + Self.frames(2)
        #expect(!Self.starts(huge))
        #expect(!Self.starts(Array("ID3".utf8) + [4, 0, 0, 0x80, 0, 0, 0]))
        #expect(!Self.starts([]))
        #expect(!Self.starts([0xFF]))
    }
}

@Suite struct FileKindTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let kinds: [(head: [UInt8], name: String)] = {
        var kinds: [(head: [UInt8], name: String)] = []
        kinds.append(([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], "a JPEG image"))
        kinds.append(([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D], "a PNG image"))
        kinds.append((bytes("GIF89a\u{1}\0"), "a GIF image"))
        kinds.append(([0x50, 0x4B, 0x03, 0x04, 0x14, 0, 0, 0], "a ZIP archive"))
        kinds.append((bytes("%PDF-1.4\n%\u{01}"), "a PDF document"))
        kinds.append(([0x1F, 0x8B, 0x08, 0], "a gzip archive"))
        kinds.append(([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0], "an ELF executable"))
        kinds.append(([], "an empty file"))
        kinds.append((bytes("Chapter list, to be filled in.\n\tÜber — 第一\r\n"), "a text file"))
        kinds.append((bytes("MAC ") + [0x96, 0x0F, 0, 0], "Monkey's Audio"))
        kinds.append((bytes("wvpk") + [0, 0, 0, 0], "WavPack"))
        kinds.append((bytes("MPCK") + [0, 0, 0, 0], "Musepack"))
        kinds.append((bytes("DSD ") + [28, 0, 0, 0], "DSD (DSF)"))
        kinds.append((bytes("FORM") + [0, 0, 0, 0] + bytes("AIFF"), "AIFF"))
        kinds.append(([0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9], "ASF (WMA)"))
        return kinds
    }()

    @Test(arguments: kinds.indices)
    func eachKindIsNamedByItsMagicNumber(_ index: Int) {
        let (head, name) = Self.kinds[index]
        #expect(FileKind.of(head)?.name == name, "\(name)")
    }

    @Test func audioKindsAreMarkedAsAudioAndOthersNot() {
        #expect(FileKind.of(Self.bytes("MAC ") + [0, 0])?.isAudio == true)
        #expect(FileKind.of([0xFF, 0xD8, 0xFF])?.isAudio == false)
        #expect(FileKind.of(Self.bytes("plain text"))?.isAudio == false)
    }

    @Test func textCutInACharacterIsStillTextAndBinaryIsNothing() {
        // "第" is three bytes: the head ends after its first two.
        let cut = Array(Self.bytes("page 第").dropLast(1))
        #expect(FileKind.of(cut)?.name == "a text file")
        #expect(FileKind.of([0x00, 0x01, 0x02, 0x9F, 0x80]) == nil)
        #expect(FileKind.of(Self.bytes("text\u{0}with a NUL")) == nil)
        #expect(FileKind.of([0xC3, 0x28, 0x41, 0x42, 0x43, 0x44]) == nil)
    }
}

@Suite struct APEv2TagTests {
    static func u32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    static func item(_ key: String, _ value: [UInt8], flags: Int = 0) -> [UInt8] {
        u32(value.count) + u32(flags) + Array(key.utf8) + [0] + value
    }

    static func frame(size: Int, count: Int, flags: Int) -> [UInt8] {
        Array("APETAGEX".utf8) + u32(2000) + u32(size) + u32(count) + u32(flags) + [UInt8](repeating: 0, count: 8)
    }

    /// Items, then a footer (and a header before them when `header`).
    static func tag(_ items: [[UInt8]], header: Bool) -> [UInt8] {
        let body = items.flatMap { $0 }
        let size = body.count + 32
        let flags = header ? 1 << 31 : 0
        return (header ? frame(size: size, count: items.count, flags: flags | 1 << 29) : []) + body
            + frame(size: size, count: items.count, flags: flags)
    }

    static let items = [
        item("Title", Array("Ünïcode — 第一".utf8)),
        item("Artist", Array("One\u{0}Two".utf8)),
        item("Cover Art (Front)", [0xFF, 0xD8, 0xFF, 0x00], flags: 1 << 1),
        item("Track", Array("2/9".utf8)),
    ]

    static func read(_ file: [UInt8]) -> APEv2Tag? {
        APEv2Tag.read(length: file.count) { offset, count in
            offset >= 0 && offset < file.count ? Array(file[offset..<min(file.count, offset + count)]) : []
        }
    }

    @Test func aTagAtTheEndBeforeID3v1OrAtTheStartIsRead() throws {
        let audio = [UInt8](repeating: 0x42, count: 500)
        let id3v1 = Array("TAG".utf8) + [UInt8](repeating: 0x20, count: 125)
        for file in [audio + Self.tag(Self.items, header: true), audio + Self.tag(Self.items, header: false) + id3v1,
                     Self.tag(Self.items, header: true) + audio] {
            let tag = try #require(Self.read(file))
            #expect(tag.items.map(\.key) == ["Title", "Artist", "Cover Art (Front)", "Track"])
            #expect(tag.fields.map(\.name) == ["TITLE", "ARTIST", "ARTIST", "TRACK"])
            #expect(tag.fields.map(\.value) == ["Ünïcode — 第一", "One", "Two", "2/9"])
            #expect(tag.items[2].isText == false)
        }
        #expect(Self.read(audio) == nil)
    }

    @Test func sizesPastTheBytesGiveFewerItemsNeverATrap() {
        let audio = [UInt8](repeating: 0, count: 100)
        // A footer claiming more than the file.
        #expect(Self.read(audio + Self.frame(size: 1 << 30, count: 2, flags: 0)) == nil)
        // An item count no size can hold.
        #expect(Self.read(audio + Self.frame(size: 64, count: 1_000_000, flags: 0)) == nil)
        // An item whose value runs past the tag: the items before it are kept.
        let long = Self.u32(1 << 31) + Self.u32(0) + Array("Album".utf8) + [0] + Array("x".utf8)
        let body = Self.items[0] + long
        let file = audio + body + Self.frame(size: body.count + 32, count: 2, flags: 0)
        #expect(Self.read(file)?.items.map(\.key) == ["Title"])
        // A key without its terminator, keys out of range.
        let unterminated = Self.u32(1) + Self.u32(0) + [UInt8](repeating: 0x41, count: 300)
        #expect(Self.read(audio + unterminated + Self.frame(size: unterminated.count + 32, count: 1, flags: 0))?.items == [])
        for cut in 0..<(Self.tag(Self.items, header: true).count) {
            _ = Self.read(Array(Self.tag(Self.items, header: true).prefix(cut)))
        }
    }

    /// mutagen's APEv2 writer (another library) as the oracle: several values, binary items.
    @Test func mutagensTagReadsAsMutagenWroteIt() throws {
        let path = NSTemporaryDirectory() + "/interlude-apev2-\(getpid()).ape"
        // A WavPack block's magic, then bytes: the tag reader goes by the magic to the APEv2 tag.
        _ = FileManager.default.createFile(atPath: path, contents: Data("wvpk".utf8) + Data(repeating: 0x11, count: 2000))
        defer { unlink(path) }
        try ExternalTool.run(["python3", "-c", """
            import sys
            from mutagen.apev2 import APEv2, APEBinaryValue
            t = APEv2(); t["Title"] = "Ünïcode — 第一"; t["Artist"] = ["One", "Two"]; t["Genre"] = "Rock"
            t["Cover Art (Front)"] = APEBinaryValue(b"x.jpg\\x00\\xff\\xd8"); t.save(sys.argv[1])
            """, path], environment: ["PYTHONPATH": ExternalTool.packageRoot + "/build/python"])
        let tags = AudioTags.read(path: path)
        #expect(tags.title == "Ünïcode — 第一")
        #expect(tags.artists == ["One", "Two"])
        #expect(tags.genres == ["Rock"])
        let bytes = try #require(FileManager.default.contents(atPath: path)).map { $0 }
        let tag = try #require(Self.read(bytes))
        #expect(tag.fields.map(\.value).sorted() == ["One", "Rock", "Two", "Ünïcode — 第一"])
        #expect(tag.items.first { $0.key == "Cover Art (Front)" }?.isText == false)
    }
}
