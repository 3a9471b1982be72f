/// Maps palette colours down to what a terminal can show: 256 -> 16 -> 8.
///
/// Distances are measured against xterm's default palette, the one most
/// terminals start with. A user's terminal may have retuned 0-15, so the
/// result is "the closest on a typical terminal", not an exact match.
public enum ColorReduction {
    /// The colour among 0-15 nearest to `index` (identity for 0-15).
    /// Ties go to the lower index, so the result is deterministic.
    public static func nearest16(to index: UInt8) -> UInt8 {
        if index < 16 { return index }
        let target = rgb(of: index)
        var best: UInt8 = 0
        var bestDistance = Int.max
        for candidate in UInt8(0)..<16 {
            let distance = squaredDistance(target, rgb(of: candidate))
            if distance < bestDistance {
                best = candidate
                bestDistance = distance
            }
        }
        return best
    }

    /// The colour among 0-7 nearest to `index`: through `nearest16`, then a
    /// bright colour becomes its base colour (the 8-colour set has no brights).
    public static func nearest8(to index: UInt8) -> UInt8 {
        let sixteen = nearest16(to: index)
        return sixteen < 8 ? sixteen : sixteen - 8
    }

    /// `color` as a terminal of `depth` can show it. The terminal default
    /// stays as it is; monochrome keeps only the terminal default.
    public static func reduce(_ color: ThemeColor, to depth: ColorDepth) -> ThemeColor {
        guard case .index(let index) = color else { return color }
        switch depth {
        case .colors256: return color
        case .colors16: return .index(nearest16(to: index))
        case .colors8: return .index(nearest8(to: index))
        case .monochrome: return .terminalDefault
        }
    }

    /// Whether text on this background reads better in black than in white,
    /// by the usual luma weights (ITU-R BT.601) on the xterm palette.
    public static func isLight(_ index: UInt8) -> Bool {
        let (red, green, blue) = rgb(of: index)
        return 299 * red + 587 * green + 114 * blue > 128_000
    }

    /// xterm's default RGB for a palette index.
    public static func rgb(of index: UInt8) -> (Int, Int, Int) {
        switch index {
        case 0..<16:
            return basic[Int(index)]
        case 16..<232:
            // The 6x6x6 cube: component level 0 is black, then 95 + 40 per step.
            let offset = Int(index) - 16
            func level(_ step: Int) -> Int { step == 0 ? 0 : 55 + 40 * step }
            return (level(offset / 36), level(offset / 6 % 6), level(offset % 6))
        default:
            // The grey ramp 232-255 runs from 8 to 238 in steps of 10.
            let grey = 8 + 10 * (Int(index) - 232)
            return (grey, grey, grey)
        }
    }

    private static let basic: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    private static func squaredDistance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let red = a.0 - b.0, green = a.1 - b.1, blue = a.2 - b.2
        return red * red + green * green + blue * blue
    }
}
