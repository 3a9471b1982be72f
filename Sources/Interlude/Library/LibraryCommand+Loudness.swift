import LibraryIO
import AudioEngine
import AudioDecoding
import MusicLibrary

/// `interlude library scan --loudness`: EBU R 128 for every indexed file
/// without ReplayGain values, stored into the index, never into the files.
extension LibraryCommand {
    struct LoudnessSummary: Equatable {
        var measured = 0
        var albums = 0
        var failed = 0
    }

    /// An album is the files of one folder that share an album tag: measured
    /// together they give the album gain. A file without an album tag gets
    /// its track values only (album mode then falls back to them).
    static func loudnessGroups(_ tracks: [LibraryTrack]) -> [[LibraryTrack]] {
        var groups: [String: [LibraryTrack]] = [:]
        var order: [String] = []
        var singles: [[LibraryTrack]] = []
        for track in tracks {
            guard let album = track.album, !album.isEmpty else {
                singles.append([track])
                continue
            }
            let folder = track.path.lastIndex(of: "/").map { String(track.path[..<$0]) } ?? "."
            let key = folder + "\u{0}" + album
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(track)
        }
        return order.map { groups[$0]! } + singles
    }

    static func measureLoudness(index: LibraryIndex) throws(SQLiteError) -> LoudnessSummary {
        var summary = LoudnessSummary()
        for group in loudnessGroups(try index.rowsMissingLoudness()) {
            let (tracks, album, failures) = Loudness.measureAlbum(paths: group.map(\.path))
            for failure in failures { writeStandardError("interlude: loudness: \(failure.description)\n") }
            summary.failed += failures.count
            let isAlbum = group.count > 1 || group[0].album.map { !$0.isEmpty } == true
            if isAlbum, album != nil { summary.albums += 1 }
            for track in tracks {
                // Silence has no gain to -18 LUFS: left unmeasured rather than stored as a guess.
                guard let gain = track.gain else { continue }
                let albumGain = isAlbum ? album?.gain : nil
                if try index.setLoudness(path: track.path, trackGain: gain, trackPeak: track.truePeak,
                                         albumGain: albumGain, albumPeak: albumGain == nil ? nil : album?.truePeak) {
                    summary.measured += 1
                }
            }
        }
        return summary
    }
}
