import BookFormat

/// What a picture's first bytes say it is: JPEG or PNG and its size in
/// pixels, read from the bytes before any library decodes them, so a picture
/// too large to decode within the memory bound is refused unread.
package struct ImageHeader: Equatable {
    package enum Format: Equatable { case jpeg, png }

    package let format: Format
    package let width: Int
    package let height: Int

    /// The widest and tallest picture decoded: 20,000 pixels across is damage
    /// or a poster, not a cover.
    package static let maximumSide = 10_000
    /// The most bytes of decoded pixels held, 4 bytes a pixel (a PNG is
    /// decoded whole: 8 megapixels; a JPEG at the libjpeg scale that keeps
    /// it under this, which an eighth does for any picture within 10,000
    /// pixels a side).
    package static let maximumDecodedBytes = 32 << 20

    /// The header of `bytes`, or why there is none: one line's words.
    package static func read(_ bytes: [UInt8]) -> Result<ImageHeader, CoverArtProblem> {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png(bytes) }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return jpeg(bytes) }
        if let kind = FileKind.of(Array(bytes.prefix(4096))) { return .failure(.notAnImage(kind.name)) }
        return .failure(.notAnImage(nil))
    }

    /// Whether this picture may be decoded: its sides and its decoded bytes within the bounds.
    package func checkBounds() -> CoverArtProblem? {
        guard width > 0, height > 0 else { return .truncated }
        guard width <= Self.maximumSide, height <= Self.maximumSide else {
            return .tooLarge("\(width)x\(height) pixels, more than \(Self.maximumSide) a side")
        }
        if format == .png, width * height * 4 > Self.maximumDecodedBytes {
            return .tooLarge("\(width)x\(height) pixels, more than the \(Self.maximumDecodedBytes >> 22) megapixels a PNG is decoded to")
        }
        return nil
    }

    /// IHDR, the first chunk: width and height as 32-bit big-endian numbers.
    private static func png(_ bytes: [UInt8]) -> Result<ImageHeader, CoverArtProblem> {
        guard bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return .failure(.truncated) }
        let width = bigEndian(bytes, at: 16, count: 4), height = bigEndian(bytes, at: 20, count: 4)
        return .success(ImageHeader(format: .png, width: width, height: height))
    }

    /// The segments up to the first start-of-frame marker (SOF0-SOF15 but
    /// DHT, JPG and DAC), whose height and width follow its precision byte.
    private static func jpeg(_ bytes: [UInt8]) -> Result<ImageHeader, CoverArtProblem> {
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { return .failure(.damaged("no JPEG marker at byte \(at)")) }
            let marker = bytes[at + 1]
            if marker == 0xFF {
                at += 1
                continue
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                at += 2
                continue
            }
            let length = bigEndian(bytes, at: at + 2, count: 2)
            guard length >= 2 else { return .failure(.damaged("a JPEG segment of length \(length)")) }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard at + 9 <= bytes.count else { return .failure(.truncated) }
                let height = bigEndian(bytes, at: at + 5, count: 2), width = bigEndian(bytes, at: at + 7, count: 2)
                return .success(ImageHeader(format: .jpeg, width: width, height: height))
            }
            if marker == 0xDA || marker == 0xD9 { break }
            at += 2 + length
        }
        return .failure(.truncated)
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }
}
