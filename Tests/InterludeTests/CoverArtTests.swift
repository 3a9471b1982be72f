import LibraryIO
import BookFormat
import PlayerModel
import Foundation
@testable import Interlude
import Testing
import TestSupport
import TUI

/// Where a track's cover comes from: each kind of tag, written by
/// the tools people tag with, and a folder image; what a bad picture gives.
@Suite struct CoverArtSourceTests {
    static let holders = CoverArtFixtures.Holder.allCases

    @Test("the front cover each kind of tag carries is found, byte for byte", arguments: holders)
    func embeddedCover(_ holder: CoverArtFixtures.Holder) throws {
        let picture = try CoverArtFixtures.picture(size: 64, format: "jpg")
        let path = try CoverArtFixtures.tagged(holder, picture: picture)
        let tags = AudioTags.read(path: path)
        #expect(!tags.pictures.isEmpty, "\(holder): no picture referenced")
        let found = try #require(CoverArtSource.picture(forAudio: path, pictures: tags.pictures))
        #expect(try found.bytes.get() == [UInt8](try Data(contentsOf: URL(fileURLWithPath: picture))), "\(holder): other bytes")
        #expect(found.origin == path)
    }

    @Test("a picture beside the file named cover, folder or front in any case is found, cover first")
    func folderImage() throws {
        let picture = try Data(contentsOf: URL(fileURLWithPath: try CoverArtFixtures.picture(size: 32, format: "png")))
        let path = try CoverArtFixtures.besideImage(named: "Cover.JPG", bytes: picture)
        let folder = (path as NSString).deletingLastPathComponent
        try Data("not this one".utf8).write(to: URL(fileURLWithPath: folder + "/front.png"))
        try Data("nor this".utf8).write(to: URL(fileURLWithPath: folder + "/cover.txt"))
        let found = try #require(CoverArtSource.picture(forAudio: path, pictures: AudioTags.read(path: path).pictures))
        #expect(found.origin == folder + "/Cover.JPG")
        #expect(try found.bytes.get() == [UInt8](picture))
    }

    @Test("a file with no picture and none beside it has none")
    func noPicture() throws {
        let path = try CoverArtFixtures.besideImage(named: "notes.txt", bytes: Data("liner notes".utf8))
        #expect(CoverArtSource.picture(forAudio: path, pictures: []) == nil)
        var last: (path: String, image: DecodedImage, header: ImageHeader)?
        #expect(CoverArtWork.run(request(path), last: &last) == .nothing)
    }

    @Test("a cover is drawn in block symbols at the size that keeps its shape", arguments: ["png", "jpg"])
    func drawn(format: String) throws {
        let path = try CoverArtFixtures.tagged(.flac, picture: try CoverArtFixtures.picture(size: 256, format: format))
        var last: (path: String, image: DecodedImage, header: ImageHeader)?
        let outcome = CoverArtWork.run(request(path, pictures: AudioTags.read(path: path).pictures), last: &last)
        guard case .picture(.symbols(let cells), let graphics) = outcome else {
            Issue.record("no picture: \(outcome)")
            return
        }
        #expect(graphics.isEmpty)
        // A square picture on cells twice as tall as wide: 40 x 20 of the 58 x 20 given.
        #expect(cells.size == TerminalSize(columns: 40, rows: 20))
        #expect(cells.rows.count == 20 && cells.rows.allSatisfy { $0.count == 40 })
        // The gradient's top-left is dark red-free blue, its top-right red: the colours differ across the picture.
        #expect(Set(cells.rows.flatMap { $0.map(\.colors) }).count > 40)
    }

    // MARK: Bad pictures: one line each, nothing decoded past the bounds

    @Test("a folder image that is not an image is one line naming it and what it is")
    func notAnImage() throws {
        let path = try CoverArtFixtures.besideImage(named: "cover.jpg", bytes: Data("this is a text file, not a picture\n".utf8))
        let line = try problem(path)
        #expect(line.contains("cover.jpg") && line.contains("not a JPEG or PNG picture (a text file)"), "\(line)")
    }

    @Test("a truncated picture is one line, JPEG and PNG", arguments: ["jpg", "png"])
    func truncated(format: String) throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: try CoverArtFixtures.picture(size: 256, format: format)))
        let path = try CoverArtFixtures.besideImage(named: "folder.\(format)", bytes: whole.prefix(whole.count / 2))
        let line = try problem(path)
        #expect(line.contains("folder.\(format)") && line.contains("damaged"), "\(line)")
    }

    @Test("a 50 MB picture is refused unread")
    func fiftyMegabytes() throws {
        let path = try CoverArtFixtures.besideImage(named: "cover.png", bytes: Data())
        let image = (path as NSString).deletingLastPathComponent + "/cover.png"
        // Sparse: the test itself holds none of it.
        #expect(truncate(image, 50 << 20) == 0)
        let line = try problem(path)
        #expect(line.contains("cover.png") && line.contains("50 MB, more than the 16 MB"), "\(line)")
    }

    @Test("a picture 20,000 pixels wide is refused from its header, before decoding")
    func tooWide() throws {
        let folder = ScratchFiles.makeDirectory("cover-wide")
        let wide = folder + "/wide.png"
        try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "color=c=red:s=20000x4", "-frames:v", "1", wide],
                                timeout: 120)
        let path = try CoverArtFixtures.besideImage(named: "front.png", bytes: try Data(contentsOf: URL(fileURLWithPath: wide)))
        let line = try problem(path)
        #expect(line.contains("front.png") && line.contains("20000x4 pixels, more than 10000 a side"), "\(line)")
    }

    private func request(_ path: String, pictures: [EmbeddedPicture] = []) -> CoverArtRequest {
        CoverArtRequest(path: path, pictures: pictures, area: TerminalSize(columns: 58, rows: 20), drawing: .symbols,
                        colors: .palette256, cellWidth: 8, cellHeight: 16)
    }

    private func problem(_ path: String) throws -> String {
        var last: (path: String, image: DecodedImage, header: ImageHeader)?
        let outcome = CoverArtWork.run(request(path), last: &last)
        guard case .problem(let line) = outcome else {
            Issue.record("not a problem: \(outcome)")
            return ""
        }
        #expect(!line.contains("\n"))
        return line
    }
}

/// The protocol is the terminal's answer's, never `TERM`'s.
@Suite struct TerminalGraphicsRepliesTests {
    @Test("a terminal that answers nothing gets block symbols (or nothing without colours)")
    func silent() {
        #expect(TerminalGraphicsReplies([]).choice(colors: .palette256) == .symbols)
        #expect(TerminalGraphicsReplies([]).choice(colors: .direct) == .symbols)
        #expect(TerminalGraphicsReplies([]).choice(colors: .none) == GraphicsProtocol.none)
        #expect(!TerminalGraphicsReplies([]).isComplete)
    }

    @Test("keys typed among the answers are given back in order; the answers are not")
    func typedAheadKeys() {
        let read = Array("9\u{1B}_Gi=31;OK\u{1B}\\x\u{1B}P>|xterm(390)\u{1B}\\\u{1B}[6;20;10t/\u{1B}[?62;4c".utf8)
        let replies = TerminalGraphicsReplies(read)
        #expect(replies.isComplete)
        #expect(replies.typedAhead == Array("9x/".utf8))
        #expect(TerminalGraphicsReplies(Array("\u{1B}[?1;2c".utf8)).typedAhead.isEmpty)
    }

    @Test("DA1 with attribute 4 is sixel (xterm -ti vt340); tmux's DA1 is symbols")
    func sixel() {
        let vt340 = TerminalGraphicsReplies(Array("\u{1B}[?63;1;2;4;6;9;15;16;22;28c".utf8))
        #expect(vt340.isComplete && vt340.choice(colors: .palette256) == .sixel)
        let tmux = TerminalGraphicsReplies(Array("\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?1;2c".utf8))
        #expect(tmux.isComplete && tmux.choice(colors: .palette256) == .symbols)
        // The first number is the terminal's class, not an attribute.
        #expect(TerminalGraphicsReplies(Array("\u{1B}[?4;1c".utf8)).choice(colors: .palette256) == .symbols)
    }

    @Test("kitty's OK to the graphics query is kitty; iTerm2 and WezTerm by XTVERSION; the cell's pixels")
    func kittyAndITerm() {
        let kitty = TerminalGraphicsReplies(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}[?62;c".utf8))
        #expect(kitty.choice(colors: .direct) == .kitty)
        #expect(kitty.cellPixels?.width == 10 && kitty.cellPixels?.height == 20)
        let iterm = TerminalGraphicsReplies(Array("\u{1B}P>|iTerm2 3.5.0\u{1B}\\\u{1B}[?62;4c".utf8))
        #expect(iterm.choice(colors: .direct) == .iterm2)
        let refused = TerminalGraphicsReplies(Array("\u{1B}_Gi=31;ENOTSUPPORTED\u{1B}\\\u{1B}[?62c".utf8))
        #expect(refused.choice(colors: .direct) == .symbols)
    }

    @Test("the config's cover-art forces a protocol, auto asks")
    func forced() {
        #expect(GraphicsProtocol(forced: .auto, colors: .palette256) == nil)
        #expect(GraphicsProtocol(forced: .sixel, colors: .palette256) == .sixel)
        #expect(GraphicsProtocol(forced: .symbols, colors: .none) == GraphicsProtocol.none)
        let config = PlayerConfigFile.parse("cover-art = symbols\n", path: "config")
        #expect(config.coverArt == .symbols && config.problems.isEmpty)
        let bad = PlayerConfigFile.parse("cover-art = ascii\n", path: "config")
        #expect(bad.coverArt == nil && bad.problems.first?.message.contains("cover-art must be auto|kitty|sixel|iterm2|symbols|none") == true)
    }

    @Test("a picture's cells keep its shape in the area given")
    func fitting() {
        let area = TerminalSize(columns: 58, rows: 20)
        #expect(fittedCells(width: 500, height: 500, area: area, cellWidth: 8, cellHeight: 16) == TerminalSize(columns: 40, rows: 20))
        #expect(fittedCells(width: 1000, height: 250, area: area, cellWidth: 8, cellHeight: 16) == TerminalSize(columns: 58, rows: 7))
        #expect(fittedCells(width: 20000, height: 1, area: area, cellWidth: 8, cellHeight: 16) == TerminalSize(columns: 58, rows: 1))
    }
}

/// The same picture as JPEG at every size a cover comes in, drawn in block
/// symbols on the cells a pane gives it, against its PNG: libjpeg scales a
/// JPEG down (halves, quarters, eighths) to the cells, so each size meets a
/// different decoded width (200, 150, 250, 375, ... pixels), and each must
/// draw the picture, not grey noise.
@Suite struct JPEGCoverSizeTests {
    static let sizes = [200, 300, 500, 600, 1000, 3000]
    /// A narrow pane (18 x 9 cells: 144 pixels, so 300 and 600 decode at 150,
    /// 500 and 1000 at 250, 3000 at 375) and a wide one (40 x 20: 320 pixels).
    static let areas = [TerminalSize(columns: 18, rows: 9), TerminalSize(columns: 58, rows: 20)]

    /// The mean distance in RGB (0-441) between the JPEG's cells and the
    /// PNG's, each cell's colour its symbol's share of the foreground and the
    /// rest background. The JPEG's own loss and libchafa choosing other
    /// symbols for slightly other pixels come to 0.5-4; the picture upside
    /// down (another picture, compared below) to 140-170, and the grey noise
    /// libchafa drew from RGB rows of a length no multiple of 4 bytes to 90.
    static let bound = 20.0

    @Test("a JPEG cover at 200, 300, 500, 600, 1000 and 3000 px, 4:4:4 and 4:2:0, draws the colours the PNG draws", arguments: sizes)
    func drawnAsThePNG(size: Int) throws {
        for area in Self.areas {
            // The picture is drawn in proportions of its side: the PNG of 1000 px is the same picture at every size
            // (a 3000 px PNG is past the 8 megapixels a PNG is decoded to).
            let png = try cells(try CoverArtFixtures.picture(size: 1000, format: "png"), area: area)
            for chroma in ["yuvj444p", "yuvj420p"] {
                let jpeg = try cells(try CoverArtFixtures.picture(size: size, format: "jpg", jpegChroma: chroma), area: area)
                #expect(jpeg.size == png.size, "\(size) px, \(chroma): \(jpeg.size) cells, the PNG \(png.size)")
                let error = Self.meanDistance(jpeg, png, flipped: false)
                let other = Self.meanDistance(jpeg, png, flipped: true)
                print("\(size) px \(chroma) JPEG on \(area.columns)x\(area.rows) cells: \(error) from its PNG, \(other) from it upside down")
                #expect(error < Self.bound, "\(size) px \(chroma) JPEG on \(area.columns)x\(area.rows) cells: mean distance \(error) from its PNG")
                #expect(other > 4 * Self.bound, "\(size) px \(chroma): the PNG upside down compares at \(other): the check could not fail")
            }
        }
    }

    /// The picture as a folder's `cover.jpg`/`cover.png` beside a track, drawn by the cover art's work in 24-bit colour.
    private func cells(_ picture: String, area: TerminalSize) throws -> PictureCells {
        let format = (picture as NSString).pathExtension
        let path = try CoverArtFixtures.besideImage(named: "cover.\(format)", bytes: try Data(contentsOf: URL(fileURLWithPath: picture)),
                                                    seconds: 1)
        var last: (path: String, image: DecodedImage, header: ImageHeader)?
        let request = CoverArtRequest(path: path, pictures: [], area: area, drawing: .symbols, colors: .direct, cellWidth: 8, cellHeight: 16)
        let outcome = CoverArtWork.run(request, last: &last)
        guard case .picture(.symbols(let cells), _) = outcome else {
            throw CoverTestFailure(description: "\(picture): no picture: \(outcome)")
        }
        return cells
    }

    private struct CoverTestFailure: Error, CustomStringConvertible { let description: String }

    private static func colour(_ cell: PictureCells.Cell) -> [Double] {
        guard case .rgb(let foreground) = cell.colors.foreground, case .rgb(let background) = cell.colors.background else {
            return [-441, -441, -441]
        }
        return BlockElements.mix(foreground: foreground, background: background, share: BlockElements.coverage(cell.symbol))
    }

    /// Over the cells, the mean distance between `drawn`'s colour and `reference`'s (upside down when `flipped`).
    static func meanDistance(_ drawn: PictureCells, _ reference: PictureCells, flipped: Bool) -> Double {
        let rows = min(drawn.rows.count, reference.rows.count)
        guard rows > 0 else { return 441 }
        var total = 0.0, count = 0
        for row in 0..<rows {
            let other = reference.rows[flipped ? rows - 1 - row : row]
            for (cell, against) in zip(drawn.rows[row], other) {
                let (a, b) = (colour(cell), colour(against))
                total += zip(a, b).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
                count += 1
            }
        }
        return count > 0 ? total / Double(count) : 441
    }
}
