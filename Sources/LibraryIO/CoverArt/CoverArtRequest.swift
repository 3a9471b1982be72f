import BookFormat
import TUI

/// A pane's picture as asked for: which file's, on how many cells, drawn how.
package struct CoverArtRequest: Equatable, Sendable {
    /// The audio file whose cover it is (a book's: its playing file's).
    package let path: String
    /// The references its tags recorded (`AudioTags.pictures`), not yet read.
    package let pictures: [EmbeddedPicture]
    /// The cells the pane has for it (`ScreenRenderer.pictureArea`).
    package let area: TerminalSize
    package let drawing: GraphicsProtocol
    package let colors: PictureColorMode
    /// A cell's size in pixels, for the graphics protocols.
    package let cellWidth: Int
    package let cellHeight: Int

    package init(path: String, pictures: [EmbeddedPicture], area: TerminalSize, drawing: GraphicsProtocol,
                 colors: PictureColorMode, cellWidth: Int, cellHeight: Int) {
        self.path = path
        self.pictures = pictures
        self.area = area
        self.drawing = drawing
        self.colors = colors
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
    }
}

/// What the cover art's thread made of a request.
package enum CoverArtOutcome: Equatable, Sendable {
    /// The picture for the pane, and for a graphics protocol the escape
    /// sequence that draws it (empty for symbols).
    case picture(PanePicture, graphics: [UInt8])
    /// The file has no picture.
    case nothing
    /// One line naming the picture and what is wrong with it.
    case problem(String)
}

/// The cells a picture of `width` x `height` pixels takes within `area`,
/// its shape kept: a cell is `cellWidth` x `cellHeight` pixels (1 x 2 for
/// symbols: a cell is about twice as tall as wide).
package func fittedCells(width: Int, height: Int, area: TerminalSize, cellWidth: Int, cellHeight: Int) -> TerminalSize {
    let aspect = Double(width) / Double(height) * Double(cellHeight) / Double(cellWidth)
    var columns = min(area.columns, max(1, Int(Double(area.rows) * aspect)))
    var rows = min(area.rows, max(1, Int((Double(columns) / aspect).rounded())))
    if rows == area.rows { columns = min(area.columns, max(1, Int((Double(rows) * aspect).rounded()))) }
    rows = max(1, rows)
    return TerminalSize(columns: columns, rows: rows)
}

/// The work of one request, on the cover art's thread: the picture found
/// (`CoverArtSource`), its header checked, decoded (or the one decoded last
/// for the same file taken again: a resize re-scales, it does not re-read),
/// and drawn at the size it fits.
package enum CoverArtWork {
    package static func run(_ request: CoverArtRequest, last: inout (path: String, image: DecodedImage, header: ImageHeader)?) -> CoverArtOutcome {
        let decoded: DecodedImage, header: ImageHeader
        if let last, last.path == request.path {
            (decoded, header) = (last.image, last.header)
        } else {
            last = nil
            guard let found = CoverArtSource.picture(forAudio: request.path, pictures: request.pictures) else { return .nothing }
            let origin = found.origin == request.path ? "cover art in \(request.path)" : "cover art \(found.origin)"
            let bytes: [UInt8]
            switch found.bytes {
            case .success(let value): bytes = value
            case .failure(let problem): return .problem("\(origin): \(problem)")
            }
            switch ImageHeader.read(bytes) {
            case .success(let value): header = value
            case .failure(let problem): return .problem("\(origin): \(problem)")
            }
            if let problem = header.checkBounds() { return .problem("\(origin): \(problem)") }
            let cells = fit(header, request)
            switch DecodedImage.decode(bytes, header: header,
                                       fit: (cells.columns * pixelsPerCell(request).width, cells.rows * pixelsPerCell(request).height)) {
            case .success(let image): decoded = image
            case .failure(let problem): return .problem("\(origin): \(problem)")
            }
            last = (request.path, decoded, header)
        }
        let cells = fit(header, request)
        let origin = "cover art of \(request.path)"
        switch request.drawing {
        case .symbols:
            switch decoded.symbols(size: cells, colors: request.colors) {
            case .success(let picture): return .picture(.symbols(picture), graphics: [])
            case .failure(let problem): return .problem("\(origin): \(problem)")
            }
        case .kitty, .sixel, .iterm2:
            switch decoded.graphics(size: cells, cellPixels: pixelsPerCell(request), protocol: request.drawing) {
            case .success(let bytes): return .picture(.graphics(size: cells), graphics: bytes)
            case .failure(let problem): return .problem("\(origin): \(problem)")
            }
        case .none: return .nothing
        }
    }

    /// Pixels a cell stands for: the terminal's own for a graphics protocol,
    /// 8 x 16 for symbols (libchafa looks at 8 x 8 per cell; twice as tall keeps the shape).
    package static func pixelsPerCell(_ request: CoverArtRequest) -> (width: Int, height: Int) {
        request.drawing == .symbols ? (8, 16) : (request.cellWidth, request.cellHeight)
    }

    private static func fit(_ header: ImageHeader, _ request: CoverArtRequest) -> TerminalSize {
        let cell = pixelsPerCell(request)
        return fittedCells(width: header.width, height: header.height, area: request.area, cellWidth: cell.width, cellHeight: cell.height)
    }
}
