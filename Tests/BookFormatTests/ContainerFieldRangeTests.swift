import Foundation
import Testing
@testable import BookFormat

/// Container fields out of range: lengths and sizes of 2^32 and
/// 2^63 in Vorbis comments, MP4 boxes and FLAC blocks give no tags, never a
/// trap (the reader checks each against what was read before any sum).
struct ContainerFieldRangeTests {
    static func be(_ value: UInt64, _ bytes: Int) -> [UInt8] { (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) } }

    static func comments(_ bytes: [UInt8]) -> AudioTags {
        var reading = TagReading(wantedPicture: nil)
        var comments = VorbisComments()
        comments.read(bytes[...], into: &reading)
        comments.finish(into: &reading)
        return reading.tags
    }

    @Test func vorbisCommentLengthsOf4GBGiveNoTags() {
        #expect(Self.comments(Self.le32(.max) + [0, 0]) == AudioTags())
        let entry = Self.le32(.max) + Array("TITLE=x".utf8)
        #expect(Self.comments(Self.le32(0) + Self.le32(.max) + entry) == AudioTags())
    }

    @Test func mp4BoxesOfImpossibleSizesGiveNoTags() throws {
        // A 64-bit size of 2^63 - 1 (the top bits masked), and one of 0xFFFFFFFF, inside `udta`.
        // Each inside `moov`/`udta` after an `ftyp`, read from memory (nothing behind the bytes).
        func inUserData(_ content: [UInt8]) -> [UInt8] {
            let udta = Self.be(UInt64(8 + content.count), 4) + Array("udta".utf8) + content
            return Self.be(16, 4) + Array("ftypM4A ".utf8) + [0, 0, 0, 0]
                + Self.be(UInt64(8 + udta.count), 4) + Array("moov".utf8) + udta
        }
        let huge = Self.be(1, 4) + Array("meta".utf8) + Self.be(.max, 8) + Array("ilst".utf8)
        #expect(AudioTags.read(path: "/nonexistent/huge.m4a", head: inUserData(huge)) == AudioTags())
        let wide = Self.be(0xFFFF_FFFF, 4) + Array("meta".utf8) + [0, 0, 0, 0]
        #expect(AudioTags.read(path: "/nonexistent/wide.m4a", head: inUserData(wide)) == AudioTags())
        // The same at the top of a file: `ftyp`, then a `moov` whose size is all ones.
        let path = NSTemporaryDirectory() + "interlude-huge-box-\(UInt64.random(in: 0...UInt64.max)).m4a"
        let file = Self.be(16, 4) + Array("ftypM4A ".utf8) + [0, 0, 0, 0] + Self.be(1, 4) + Array("free".utf8)
            + Self.be(.max, 8) + Self.be(1, 4) + Array("moov".utf8) + Self.be(.max, 8)
        try Data(file).write(to: URL(fileURLWithPath: path))
        #expect(AudioTags.read(path: path) == AudioTags())
    }

    @Test func flacBlocksOfTheLargestLengthGiveNoTags() throws {
        let path = NSTemporaryDirectory() + "interlude-huge-block-\(UInt64.random(in: 0...UInt64.max)).flac"
        // A STREAMINFO-typed block of 16 MB - 1 in a file of 12 bytes, then a comment block claiming the same.
        try Data(Array("fLaC".utf8) + [0x00, 0xFF, 0xFF, 0xFF] + [0x04, 0xFF, 0xFF, 0xFF]).write(to: URL(fileURLWithPath: path))
        #expect(AudioTags.read(path: path) == AudioTags())
    }
}
