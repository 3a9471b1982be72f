import BookFormat

/// Cue sheets in a music queue: whichever front end sent the files (the
/// browser's enter and `e`, the remote socket's `queue add`, standard input),
/// a `.cue` among them becomes its tracks (`SHEET.cue#N`, see `CueTrackPath`).
extension PlayerRuntime {
    struct CueExpansion: Equatable {
        var paths: [String]
        /// The entry `startAt` pointed at, where it is now (its first track for a sheet).
        var startAt: Int
        /// One sentence per sheet left out, naming it.
        var problems: [String]
    }

    /// `paths` with each sheet replaced by its tracks; an image file a sheet
    /// in the same list covers is left out (a folder holds both, and the
    /// sheet's tracks are the image already). A sheet that cannot be used is
    /// left out and named; `startAt` then moves to the entry after it.
    static func expandingCueSheets(_ paths: [String], startAt: Int = 0) -> CueExpansion {
        guard paths.contains(where: { $0.lowercased().hasSuffix(".cue") }) else {
            return CueExpansion(paths: paths, startAt: startAt, problems: [])
        }
        var expanded: [[String]] = []
        var covered: Set<String> = []
        var problems: [String] = []
        for path in paths {
            guard path.lowercased().hasSuffix(".cue") else {
                expanded.append([path])
                continue
            }
            switch CueTrack.tracks(ofSheet: path) {
            case .success(let tracks):
                expanded.append(tracks.map(\.path.path))
                covered.formUnion(tracks.map(\.track.audioPath))
            case .failure(let problem):
                expanded.append([])
                problems.append(problem.message)
            }
        }
        var result: [String] = []
        var start = 0
        for (index, entries) in expanded.enumerated() {
            if index == startAt { start = result.count }
            if entries.count == 1, covered.contains(entries[0]), !entries[0].lowercased().hasSuffix(".cue") { continue }
            result += entries
        }
        if startAt >= expanded.count { start = result.count }
        return CueExpansion(paths: result, startAt: min(start, max(0, result.count - 1)), problems: problems)
    }
}
