import Foundation
import Testing
import TestSupport

@Suite struct WAVFileTests {
    @Test func writeThenReadGivesBackTheSameAudio() throws {
        let audio = PCMAudio(sampleRate: 22050, channels: 2, samples: (0..<2000).map { Int16(truncatingIfNeeded: $0 * 37 - 30000) })
        let path = ScratchFiles.makeDirectory("wav") + "/roundtrip.wav"
        try WAVFile.write(audio, to: path)
        #expect(try WAVFile.read(path) == audio)
    }

    @Test func readsSoxOutputAndSkipsExtraChunks() throws {
        let path = try Fixtures.wav(.sweep, seconds: 0.5, sampleRate: 8000, channels: 1)
        let plain = try WAVFile.read(path)
        #expect(plain.sampleRate == 8000 && plain.channels == 1 && plain.frameCount == 4000)

        // Insert a LIST chunk (odd size, padded) between fmt and data, as taggers do.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let dataOffset = try #require(findChunk("data", in: bytes))
        let list: [UInt8] = Array("LIST".utf8) + [5, 0, 0, 0] + Array("INFOx".utf8) + [0]
        bytes.insert(contentsOf: list, at: dataOffset)
        let tagged = try WAVFile.parse(Data(bytes))
        #expect(tagged == plain)
    }

    @Test func streamingSizesMeanDataToEndOfFile() throws {
        let audio = PCMAudio(sampleRate: 44100, channels: 2, samples: (0..<1000).map { Int16($0) })
        for size: UInt32 in [0xFFFF_FFFF, 0] {
            var bytes = [UInt8](WAVFile.encode(audio))
            let dataOffset = try #require(findChunk("data", in: bytes))
            withUnsafeBytes(of: size.littleEndian) { bytes.replaceSubrange(dataOffset + 4..<dataOffset + 8, with: $0) }
            bytes.append(contentsOf: [1, 2, 3])  // a torn last frame is dropped
            #expect(try WAVFile.parse(Data(bytes)) == audio)
        }
    }

    @Test func rejectsFilesThatAreNotWAV() throws {
        let path = try Fixtures.broken(.randomBytes)
        #expect(throws: WAVError.self) { try WAVFile.read(path) }
    }

    private func findChunk(_ id: String, in bytes: [UInt8]) -> Int? {
        let tag = Array(id.utf8)
        return (12..<(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == tag }
    }
}
