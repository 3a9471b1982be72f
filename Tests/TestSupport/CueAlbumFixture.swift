import Foundation

/// A FLAC image of a 6-second sweep with a cue sheet of three titled tracks
/// beside it, made at test time (sox through `Fixtures.wav`, then `flac`), in
/// a folder of its own: an album whose tracks are queue entries.
public struct CueAlbumFixture: Sendable {
    public static let rate = 44100
    /// (TITLE, INDEX 01 as written, INDEX 01 in CD frames of 1/75 s).
    public static let tracks: [(title: String, index: String, cdFrames: Int)] = [
        ("Overture", "00:00:00", 0),
        ("Второй акт", "00:02:10", 2 * 75 + 10),
        ("終曲", "00:04:20", 4 * 75 + 20),
    ]

    public let folder: String
    public let sheet: String
    public let image: String
    /// The encoded file as made (its own unique name, for the reference decode's cache).
    public let encoded: String

    /// INDEX 01 of track `number` (from 0) in output frames, exactly.
    public static func startFrame(_ number: Int) -> Int { tracks[number].cdFrames * rate / 75 }

    public static func make(_ name: String) throws -> CueAlbumFixture {
        let folder = ScratchFiles.makeDirectory("cue-album-\(name)")
        let encoded = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 6, sampleRate: rate, channels: 2), as: .flac16)
        let image = folder + "/album.flac"
        try FileManager.default.copyItem(atPath: encoded, toPath: image)
        var text = "REM GENRE Test\nPERFORMER \"Interlude Tests\"\nTITLE \"Cue Album\"\nFILE \"album.flac\" WAVE\n"
        for (number, track) in tracks.enumerated() {
            text += "  TRACK \(String(format: "%02d", number + 1)) AUDIO\n    TITLE \"\(track.title)\"\n    INDEX 01 \(track.index)\n"
        }
        let sheet = folder + "/album.cue"
        try Data(text.utf8).write(to: URL(fileURLWithPath: sheet))
        return CueAlbumFixture(folder: folder, sheet: sheet, image: image, encoded: encoded)
    }

    /// The queue entries `interlude` makes of the sheet: `SHEET.cue#N`.
    public var trackPaths: [String] { (1...Self.tracks.count).map { "\(sheet)#\($0)" } }
}
