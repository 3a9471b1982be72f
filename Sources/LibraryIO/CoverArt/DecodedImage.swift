import CCoverArt
#if canImport(Glibc)
import Glibc
#endif
import TUI

/// A picture's pixels decoded by libjpeg or libpng (each loaded at the
/// first picture of its format), freed with the value. Made and used on the
/// cover art's thread, one request at a time (hence unchecked: never shared).
package final class DecodedImage: @unchecked Sendable {
    fileprivate var image = interlude_image()

    package var width: Int { Int(image.width) }
    package var height: Int { Int(image.height) }

    /// libjpeg's working memory (its coefficient buffers for a progressive
    /// JPEG, which are the whole picture's): more is refused with its message.
    package static let jpegMemoryLimit = 48 << 20

    private init() {}
    deinit { interlude_image_free(&image) }

    /// Decodes `bytes`, whose header has been read and checked, to RGBA rows
    /// (both formats: libchafa reads those right at every width); a JPEG at
    /// the smallest of libjpeg's scales that is at least `fit` pixels and
    /// within `ImageHeader.maximumDecodedBytes`.
    package static func decode(_ bytes: [UInt8], header: ImageHeader, fit: (width: Int, height: Int)) -> Result<DecodedImage, CoverArtProblem> {
        let decoded = DecodedImage()
        var message = [CChar](repeating: 0, count: 256)
        switch header.format {
        case .jpeg:
            guard interlude_jpeg_load(&message, message.count) == 0 else { return .failure(.library(text(message))) }
            let status = bytes.withUnsafeBufferPointer { buffer in
                interlude_jpeg_decode(buffer.baseAddress, buffer.count, Int32(clamping: fit.width), Int32(clamping: fit.height),
                                      jpegMemoryLimit, ImageHeader.maximumDecodedBytes, &decoded.image, &message, message.count)
            }
            guard status == 0 else { return .failure(.damaged("libjpeg: " + text(message))) }
        case .png:
            guard interlude_png_load(&message, message.count) == 0 else { return .failure(.library(text(message))) }
            let status = bytes.withUnsafeBufferPointer { buffer in
                interlude_png_decode(buffer.baseAddress, buffer.count, &decoded.image, &message, message.count)
            }
            guard status == 0 else { return .failure(.damaged("libpng: " + text(message))) }
        }
        return .success(decoded)
    }

    /// The picture in block symbols on exactly `size` cells, by libchafa.
    package func symbols(size: TerminalSize, colors: PictureColorMode) -> Result<PictureCells, CoverArtProblem> {
        var message = [CChar](repeating: 0, count: 256)
        guard interlude_chafa_load(&message, message.count) == 0 else { return .failure(.library(Self.text(message))) }
        let mode: Int32 = switch colors {
        case .direct: Int32(INTERLUDE_PICTURE_TRUECOLOR)
        case .palette256: Int32(INTERLUDE_PICTURE_INDEXED_256)
        case .palette16, .none: Int32(INTERLUDE_PICTURE_INDEXED_16)
        }
        var cells = [interlude_picture_cell](repeating: interlude_picture_cell(), count: size.columns * size.rows)
        guard interlude_chafa_symbols(&image, Int32(size.columns), Int32(size.rows), mode, &cells, &message, message.count) == 0
        else { return .failure(.library("libchafa: " + Self.text(message))) }
        func color(_ value: Int32) -> PictureColor {
            colors == .direct ? .rgb(UInt32(bitPattern: value) & 0xFF_FFFF) : .palette(Int(value))
        }
        let rows = (0..<size.rows).map { row in
            (0..<size.columns).map { column in
                let cell = cells[row * size.columns + column]
                let symbol = Unicode.Scalar(cell.symbol).map(Character.init) ?? " "
                return PictureCells.Cell(symbol: symbol, colors: CellColors(foreground: color(cell.foreground),
                                                                            background: color(cell.background)))
            }
        }
        return .success(PictureCells(size: size, rows: rows))
    }

    /// The escape sequence that draws the picture on `size` cells of `cellPixels` in a graphics protocol.
    package func graphics(size: TerminalSize, cellPixels: (width: Int, height: Int), protocol kind: GraphicsProtocol) -> Result<[UInt8], CoverArtProblem> {
        var message = [CChar](repeating: 0, count: 256)
        guard interlude_chafa_load(&message, message.count) == 0 else { return .failure(.library(Self.text(message))) }
        let number: Int32 = switch kind {
        case .kitty: Int32(INTERLUDE_GRAPHICS_KITTY)
        case .iterm2: Int32(INTERLUDE_GRAPHICS_ITERM2)
        default: Int32(INTERLUDE_GRAPHICS_SIXEL)
        }
        var length = 0
        guard let printed = interlude_chafa_graphics(&image, Int32(size.columns), Int32(size.rows), Int32(cellPixels.width),
                                                     Int32(cellPixels.height), number, &length, &message, message.count)
        else { return .failure(.library("libchafa: " + Self.text(message))) }
        defer { free(printed) }
        return .success(Array(UnsafeRawBufferPointer(start: printed, count: length).bindMemory(to: UInt8.self)))
    }

    fileprivate static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
