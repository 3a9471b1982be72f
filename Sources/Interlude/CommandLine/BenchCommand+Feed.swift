import LoopIO
import LibraryIO
import InterludeCore
import Podcasts

extension BenchCommand {
    /// Parses are whole documents; a thousand of a 10 MB feed take minutes already.
    static let runsRange = CountRange(1...1000)

    /// `interlude bench feed FILE [--runs N]`: the CPU a feed costs to read
    /// as `podcast add` and `podcast refresh` read it (libxml2's reader under
    /// podcastparser's rules, `FeedDocument`), over bytes already in memory:
    /// the first parse (libxml2 loaded) and the median of N more (default 5).
    static func feed(_ arguments: [String]) -> Int32 {
        guard let (path, runs) = fileAndCount(arguments, command: "feed", option: "--runs", range: runsRange,
                                              default: 5) else { return 2 }
        let bytes: [UInt8]
        do {
            guard let read = try StateFile(path: path).read(limit: 256 << 20) else {
                writeStandardError("interlude: \(path): no such file\n")
                return 1
            }
            bytes = read
        } catch {
            writeStandardError("interlude: \(error.description)\n")
            return 1
        }
        var times: [Double] = []
        var episodes = 0
        for _ in 0...runs {
            let start = processCPUSeconds()
            do {
                episodes = try FeedDocument.parse(bytes, url: "https://example.com/feed.xml").episodes.count
            } catch {
                writeStandardError("interlude: \(path): \(error)\n")
                return 1
            }
            times.append(processCPUSeconds() - start)
        }
        let warm = times.dropFirst().sorted()
        writeStandardOutput("\(JSONLine.number(warm[warm.count / 2], decimals: 4)) s CPU median parse of \(runs); "
                            + "\(JSONLine.number(times[0], decimals: 4)) s first (libxml2 loaded); \(episodes) episodes\n")
        return 0
    }
}
