import Foundation
import Testing
import TestSupport

/// Peak RSS of AAC playback: FFmpeg's libraries are
/// loaded one object at a time and, after each step, the pages the loading
/// touched in the objects' never-written segments are given back
/// (`Sources/CFFmpeg/loader.c`, `interlude_release_clean_segments`). Read from
/// the player's own /proc/PID/smaps once an M4A has started: of the libraries
/// that only FFmpeg brings in (mapped when an M4A plays, not when an MP3
/// does), hardly any keeps a resident page in its code or in its first
/// read-only segment (headers, symbol and relocation tables). Without the
/// release every one of them does: the dynamic loader reads the tables of each
/// and runs its constructors, and the kernel maps 64 KB around each page touched.
@Suite(.serialized) struct FFmpegLoadFootprintTests {
    struct Mapping {
        let path: String
        let permissions: String
        let offset: UInt64
        var resident = 0
    }

    static func smaps(playing file: String) throws -> [Mapping] {
        let text = try FFmpegFootprintTests.procEntry("smaps", playing: file)
        var mappings: [Mapping] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2 else { continue }
            if fields.count >= 5, fields[0].contains("-"), let offset = UInt64(fields[2], radix: 16) {
                let path = fields.count >= 6 ? fields[5...].joined(separator: " ") : ""
                mappings.append(Mapping(path: path, permissions: String(fields[1]), offset: offset))
            } else if fields[0] == "Rss:", let kilobytes = Int(fields[1]), !mappings.isEmpty {
                mappings[mappings.count - 1].resident = kilobytes
            }
        }
        return mappings
    }

    static func sharedObjects(_ mappings: [Mapping]) -> Set<String> {
        Set(mappings.map(\.path).filter { $0.hasPrefix("/") && $0.contains(".so") })
    }

    @Test(.disabled(if: InterludeBinary.isAddressSanitized, "an ASan build keeps loading pages of all 107 resident, leak checks on or off"))
    func theLibrariesOnlyFFmpegBringsInKeepNoLoadingPagesResident() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 3, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let m4a = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 3, sampleRate: 44100, channels: 2), as: .aac)
        let mp3Objects = Self.sharedObjects(try Self.smaps(playing: mp3))
        let mappings = try Self.smaps(playing: m4a)
        let ffmpeg = ["libavformat", "libavcodec", "libavutil", "libswresample"]
        let dependencies = Self.sharedObjects(mappings).subtracting(mp3Objects)
            .filter { path in !ffmpeg.contains { path.contains($0) } }
        // Debian's FFmpeg brings in about 130 (codecs for video, TLS, XML, SVG, ...).
        try #require(dependencies.count >= 20, "only \(dependencies.count) libraries beside FFmpeg's own: \(dependencies.sorted())")
        var holding: [String: Int] = [:]
        for mapping in mappings where dependencies.contains(mapping.path) && mapping.resident > 0 {
            let code = mapping.permissions.hasPrefix("r-x")
            let tables = mapping.permissions.hasPrefix("r--") && mapping.offset == 0
            if code || tables { holding[mapping.path, default: 0] += mapping.resident }
        }
        // A few may be in use (or read by a later dlopen); not a tenth of them.
        #expect(holding.count * 10 <= dependencies.count,
                "\(holding.count) of \(dependencies.count) libraries keep loading pages resident (KB): \(holding.sorted { $0.value > $1.value })")
    }
}
