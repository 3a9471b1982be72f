/// The share of a cell each block element (U+2580-U+259F) covers: its
/// foreground's part, the rest the background's. A drawing in symbols is
/// compared with a picture by each cell's mix of its two colours.
public enum BlockElements {
    public static func coverage(_ character: Character) -> Double {
        guard let value = character.unicodeScalars.first?.value else { return 0 }
        switch value {
        case 0x2580, 0x2590, 0x2592: return 0.5
        case 0x2581...0x2588: return Double(value - 0x2580) / 8
        case 0x2589...0x258F: return Double(0x2590 - value) / 8
        case 0x2591: return 0.25
        case 0x2593: return 0.75
        case 0x2594, 0x2595: return 0.125
        case 0x2596, 0x2597, 0x2598, 0x259D: return 0.25
        case 0x259A, 0x259E: return 0.5
        case 0x2599, 0x259B, 0x259C, 0x259F: return 0.75
        default: return 0
        }
    }

    /// A cell's colour as seen from afar: `share` of `foreground` and the rest
    /// of `background`, each 0xRRGGBB, as (r, g, b).
    public static func mix(foreground: UInt32, background: UInt32, share: Double) -> [Double] {
        (0..<3).map { channel in
            let shift = UInt32(16 - channel * 8)
            return share * Double(foreground >> shift & 0xFF) + (1 - share) * Double(background >> shift & 0xFF)
        }
    }
}
