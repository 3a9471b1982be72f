/// The colours a terminal gives a picture drawn in block symbols.
public enum PictureColorMode: String, Sendable, CaseIterable {
    /// 24-bit colour.
    case direct
    /// xterm's 256 colours: the 6x6x6 cube (16-231) and 24 greys (232-255).
    case palette256
    case palette16
    /// No colour: no picture in symbols.
    case none

    /// The cube's six levels.
    static let levels: [UInt32] = [0, 95, 135, 175, 215, 255]

    /// The RGB (0xRRGGBB) xterm shows for palette entry 16-255 (0 for the 16 system colours, which terminals choose).
    public static func paletteRGB(_ index: Int) -> UInt32 {
        switch index {
        case 16...231:
            let cube = index - 16
            return levels[cube / 36] << 16 | levels[cube / 6 % 6] << 8 | levels[cube % 6]
        case 232...255:
            let grey = UInt32(8 + (index - 232) * 10)
            return grey << 16 | grey << 8 | grey
        default: return 0
        }
    }

    /// The palette entry (16-255) nearest to an RGB colour.
    public static func nearestPaletteIndex(_ rgb: UInt32) -> Int {
        var best = 16, bestDistance = Int.max
        for index in 16...255 {
            let other = paletteRGB(index)
            var distance = 0
            for shift in [16, 8, 0] as [UInt32] {
                let delta = Int(rgb >> shift & 0xFF) - Int(other >> shift & 0xFF)
                distance += delta * delta
            }
            if distance < bestDistance { (best, bestDistance) = (index, distance) }
        }
        return best
    }
}
