import CNcursesw
#if canImport(Glibc)
import Glibc
#endif

/// How many terminal columns text takes, by the C library's `wcwidth`
/// (which follows the locale's character tables: CJK ideographs, kana and
/// most emoji take two columns, combining marks none).
///
/// Needs a UTF-8 locale (`TextWidth.prepareLocale()`); in the "C" locale
/// `wcwidth` knows only ASCII.
public enum TextWidth {
    /// Columns of one character (a grapheme cluster): its first scalar's
    /// width; the scalars that follow (combining marks, variation selectors,
    /// joiners) add nothing. Control and unknown characters count 1, since
    /// they are drawn as a replacement character.
    public static func columns(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.isASCII { return 1 }
        let width = Int(interlude_wcwidth(first.value))
        return width < 0 ? 1 : min(width, 2)
    }

    public static func columns(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + max(columns(of: $1), 0) }
    }

    /// Sets the locale from the environment (`LANG`, `LC_ALL`...), falling
    /// back to C.UTF-8 when that is not UTF-8, so wide characters are
    /// measured and drawn. Returns the locale in use.
    @discardableResult
    public static func prepareLocale() -> String {
        if let name = setlocale(LC_ALL, ""), isUTF8(String(cString: name)) { return String(cString: name) }
        if let name = setlocale(LC_ALL, "C.UTF-8") { return String(cString: name) }
        return "C"
    }

    private static func isUTF8(_ locale: String) -> Bool {
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }
}
