import Foundation
import Testing
import TestSupport
import BookFormat
import TUI

/// Container tags everywhere: the folder browser (and the queue, MPRIS, the event
/// hook: everything that reads `AudioTags`) shows the titles of FLAC, Ogg
/// Vorbis, Opus and MP4 files from their own tags, read without FFmpeg's
/// libraries. The files are tagged by the encoders themselves.
@Suite struct ContainerTagTests {
    static let title = "Chapter Eleven — 第十一章"
    static let artist = "Mary Shelley"
    static let album = "Frankenstein"

    static func taggedFiles() throws -> [String: String] {
        let wav = try Fixtures.wav(.sweep, seconds: 1, sampleRate: 44100, channels: 2)
        let metadata = ["-metadata", "title=\(title)", "-metadata", "artist=\(artist)", "-metadata", "album=\(album)"]
        return [
            "flac": try Fixtures.encode(wav, as: .flac16, extraArguments: ["-T", "TITLE=\(title)", "-T", "ARTIST=\(artist)", "-T", "ALBUM=\(album)"]),
            "ogg": try Fixtures.encode(wav, as: .vorbis, extraArguments: ["-t", title, "-a", artist, "-l", album]),
            "opus": try Fixtures.encode(wav, as: .opus, extraArguments: ["--title", title, "--artist", artist, "--album", album]),
            // ffmpeg writes the `moov` box after the audio unless asked to move it first: both are read.
            "m4a": try Fixtures.encode(wav, as: .aac, extraArguments: metadata),
            "m4b": try Fixtures.encode(wav, as: .aac, fileExtension: "m4b", extraArguments: metadata + ["-movflags", "+faststart"]),
        ]
    }

    @Test func theBrowserShowsTitlesAndArtistsFromEachFormatsTags() throws {
        let folder = ScratchFiles.makeDirectory("container-tags")
        for (suffix, file) in try Self.taggedFiles() {
            try FileManager.default.copyItem(atPath: file, toPath: "\(folder)/tagged-\(suffix).\(suffix)")
        }
        let entries = try #require(FileSystemBrowserSource().entries(in: folder))
        #expect(entries.count == 5, "\(entries)")
        for entry in entries {
            #expect(entry.title == Self.title, "\(entry.name): \(entry.title)")
            #expect(entry.artist == Self.artist, "\(entry.name): \(entry.artist)")
            #expect(AudioTags.read(path: entry.path).album == Self.album, "\(entry.name)")
        }
    }

    /// A file cut anywhere, or with bytes overwritten, gives the tags it still
    /// has or none (the browser then shows the file name), never a crash.
    @Test func damagedFilesGiveNoTagsAndNoCrash() throws {
        let folder = ScratchFiles.makeDirectory("container-tags-damaged")
        for (suffix, file) in try Self.taggedFiles() {
            let bytes = try #require(FileManager.default.contents(atPath: file))
            var cuts = Array(stride(from: 0, to: min(bytes.count, 6000), by: 31))
            cuts.append(bytes.count - 1)
            for cut in cuts {
                let path = "\(folder)/cut-\(cut).\(suffix)"
                try bytes.prefix(cut).write(to: URL(fileURLWithPath: path))
                let tags = AudioTags.read(path: path)
                // What is read is what was written, never garbage read past a length.
                #expect(tags.title == nil || tags.title == Self.title, "\(path): \(tags)")
                #expect(tags.artist == nil || tags.artist == Self.artist, "\(path): \(tags)")
                #expect(tags.album == nil || tags.album == Self.album, "\(path): \(tags)")
                try FileManager.default.removeItem(atPath: path)
            }
            var generator = SystemRandomNumberGenerator()
            for round in 0..<60 {
                var damaged = bytes
                for _ in 0..<8 {
                    damaged[Int.random(in: 0..<min(damaged.count, 4096), using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                let path = "\(folder)/flipped-\(round).\(suffix)"
                try damaged.write(to: URL(fileURLWithPath: path))
                _ = AudioTags.read(path: path)
                try FileManager.default.removeItem(atPath: path)
            }
        }
    }
}
