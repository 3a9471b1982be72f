import LoopIO
import LibraryIO
import BookFormat
import InterludeCore
import TUI

extension BenchCommand {
    /// `interlude bench cover FILE`: the CPU a cover costs to draw, as the
    /// full-screen player's thread draws it (found, decoded, drawn in block
    /// symbols on 58 x 20 cells in 256 colours): the first draw, which loads
    /// libjpeg or libpng and libchafa, and the median of 20 more, each
    /// decoded afresh (the player keeps the decoded picture for a resize).
    static func cover(_ arguments: [String]) -> Int32 {
        guard arguments.count == 1 else {
            writeStandardError("interlude bench: usage: interlude bench cover FILE\n")
            return 2
        }
        let path = arguments[0]
        let request = CoverArtRequest(path: path, pictures: AudioTags.read(path: path).pictures,
                                      area: TerminalSize(columns: 58, rows: 20), drawing: .symbols, colors: .palette256,
                                      cellWidth: 8, cellHeight: 16)
        var times: [Double] = []
        for _ in 0..<21 {
            var last: (path: String, image: DecodedImage, header: ImageHeader)?
            let start = processCPUSeconds()
            let outcome = CoverArtWork.run(request, last: &last)
            times.append(processCPUSeconds() - start)
            switch outcome {
            case .picture: continue
            case .nothing:
                writeStandardError("interlude bench cover: \(path) has no cover\n")
                return 1
            case .problem(let line):
                writeStandardError("interlude: \(line)\n")
                return 1
            }
        }
        let warm = times.dropFirst().sorted()
        writeStandardOutput("\(JSONLine.number(times[0] * 1000, decimals: 1)) ms CPU first draw (libraries loaded); "
                            + "\(JSONLine.number(warm[warm.count / 2] * 1000, decimals: 1)) ms CPU median draw of 20\n")
        return 0
    }
}
