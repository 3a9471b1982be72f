import Foundation
import Testing
@testable import BookFormat

/// Reading the tag from a file: what a file without a tag, with a tag we do
/// not read, or a missing file gives.
struct TagFileReaderTests {
    @Test func fileWithoutTagHasNoChaptersAndNoError() throws {
        try FileManager.default.createDirectory(atPath: MutagenRoundTripTests.directory, withIntermediateDirectories: true)
        let path = try MutagenRoundTripTests.tone(named: "untagged")
        #expect(try TagFileReader.chapters(atPath: path) == .empty)
    }

    /// ID3v2.2 is read (its frames have no chapters); 2.5 is a version the
    /// specification says to leave alone.
    @Test func fileWithID3v22TagHasNoChaptersAndNoErrorAndV25IsUnsupported() throws {
        try FileManager.default.createDirectory(atPath: MutagenRoundTripTests.directory, withIntermediateDirectories: true)
        for major: UInt8 in [2, 5] {
            let path = MutagenRoundTripTests.directory + "/v2\(major).mp3"
            let bytes: [UInt8] = Array("ID3".utf8) + [major, 0, 0, 0, 0, 0, 20] + [UInt8](repeating: 0, count: 20)
            try Data(bytes + [0xFF, 0xFB, 0x90, 0x64]).write(to: URL(fileURLWithPath: path))
            let expected = major == 2 ? ChapterList.empty : ChapterList(chapters: [], damage: .unsupportedVersion(major: 5))
            #expect(try TagFileReader.chapters(atPath: path) == expected)
        }
    }

    @Test func missingFileIsACannotOpenError() {
        #expect(throws: TagFileError.self) { try TagFileReader.chapters(atPath: MutagenRoundTripTests.directory + "/does-not-exist.mp3") }
    }
}
