/// Text from outside (tags, file names, labels, a player's replies) made safe
/// to print on a terminal: every control character that could move the
/// cursor, retitle the window or clear the screen is shown escaped instead.
/// A title tag holding `ESC ] 0 ; x BEL ESC [ 2 J` prints as
/// `\e]0;x\x07\e[2J`.
///
/// Escaped: C0 (U+0000-U+001F) but newline and tab, DEL (U+007F) and C1
/// (U+0080-U+009F, which terminals in UTF-8 mode may read as ESC-sequences:
/// U+009B is CSI). ESC is `\e`, the rest of C0 and DEL `\xHH`, C1 `\u{HH}`.
public enum TerminalText {
    public static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            switch value {
            case 0x0A, 0x09: output.unicodeScalars.append(scalar)
            case 0x1B: output += "\\e"
            case 0..<0x20, 0x7F: output += "\\x" + hex(value)
            case 0x80..<0xA0: output += "\\u{" + hex(value) + "}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// True when `bytes` holds nothing `escaped` would change.
    public static func isSafe(_ bytes: some Sequence<UInt8>) -> Bool {
        var afterC2 = false
        for byte in bytes {
            if afterC2 && (0x80..<0xA0).contains(byte) { return false }
            if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F { return false }
            afterC2 = byte == 0xC2
        }
        return true
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(value >> 4) & 0xF], digits[Int(value) & 0xF]])
    }
}
