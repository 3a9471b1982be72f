import BookFormat
import InterludeCore

/// Cue sheets in a music queue: whichever front end sent the files (the
/// browser's enter and `e`, the remote socket's `queue add`, standard input),
/// a `.cue` among them becomes its tracks (`SHEET.cue#N`, see `CueTrackPath`).
extension PlayerRuntime {
    package struct CueExpansion: Equatable {
        package var paths: [String]
        /// The entry `startAt` pointed at, where it is now (its first track for a sheet).
        package var startAt: Int
        /// One sentence per sheet left out, naming it.
        package var problems: [String]

        package init(paths: [String], startAt: Int, problems: [String]) {
            self.paths = paths
            self.startAt = startAt
            self.problems = problems
        }
    }

    /// `paths` with each sheet replaced by its tracks; an image file a sheet
    /// in the same list covers is left out (a folder holds both, and the
    /// sheet's tracks are the image already). A sheet that cannot be used is
    /// left out and named; `startAt` then moves to the entry after it.
    /// A FIFO, a device or a socket among them is left out and named too,
    /// before the feeder would open it (`AudioPathCheck`).
    package static func expandingCueSheets(_ paths: [String], startAt: Int = 0) -> CueExpansion {
        let special = paths.map { path in AudioPathCheck.specialKind(path).flatMap { $0 == .directory ? nil : $0 } }
        guard paths.contains(where: { $0.lowercased().hasSuffix(".cue") }) || special.contains(where: { $0 != nil }) else {
            return CueExpansion(paths: paths, startAt: startAt, problems: [])
        }
        var expanded: [[String]] = []
        var covered: Set<String> = []
        var problems: [String] = []
        for (path, kind) in zip(paths, special) {
            if let kind {
                expanded.append([])
                problems.append("\(path): is \(kind.rawValue), not an audio file")
                continue
            }
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
