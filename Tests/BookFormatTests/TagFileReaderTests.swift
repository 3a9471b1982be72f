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

    @Test func fileWithID3v22TagReportsTheVersionAndNoChapters() throws {
        try FileManager.default.createDirectory(atPath: MutagenRoundTripTests.directory, withIntermediateDirectories: true)
        let path = MutagenRoundTripTests.directory + "/v22.mp3"
        let bytes: [UInt8] = Array("ID3".utf8) + [2, 0, 0, 0, 0, 0, 20] + [UInt8](repeating: 0, count: 20)
        try Data(bytes + [0xFF, 0xFB, 0x90, 0x64]).write(to: URL(fileURLWithPath: path))
        #expect(try TagFileReader.chapters(atPath: path) == ChapterList(chapters: [], damage: .unsupportedVersion(major: 2)))
    }

    @Test func missingFileIsACannotOpenError() {
        #expect(throws: TagFileError.self) { try TagFileReader.chapters(atPath: MutagenRoundTripTests.directory + "/does-not-exist.mp3") }
    }
}
