/// `cover-art = auto|kitty|sixel|iterm2|symbols|none`: how the full-screen
/// player draws cover art. `auto` (the default) asks the terminal which
/// graphics protocol it speaks (the kitty graphics query, XTVERSION, DA1's
/// sixel attribute) and falls back to block symbols; the others force one.
public enum CoverArtSetting: String, Sendable, CaseIterable {
    case auto
    case kitty
    case sixel
    case iterm2
    case symbols
    case none

    public static var accepts: String { allCases.map(\.rawValue).joined(separator: "|") }
}
