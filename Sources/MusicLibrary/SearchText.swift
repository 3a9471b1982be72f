/// What search compares: text folded (lower case, diacritics removed) and
/// cut into words. Letters and digits (Unicode categories L*, N*, Co) make
/// words, combining marks are dropped, anything else separates. Chinese,
/// Japanese and Korean characters are written without spaces between words,
/// so each is a word of its own and a query's run of them must match a run
/// in the text: that is search by substring for CJK.
///
/// The index stores these words joined by spaces (SQLite's `unicode61`
/// tokenizer then splits them back exactly), and the pure matcher compares
/// the same words, so the two agree by construction.
public enum SearchText {
    public struct Word: Hashable, Sendable {
        public let text: String
        public let isCJK: Bool
    }

    public static func words(_ text: String) -> [Word] {
        var words: [Word] = []
        var current = String.UnicodeScalarView()
        func flush() {
            if !current.isEmpty { words.append(Word(text: String(current), isCJK: false)) }
            current = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            // ASCII, most of what tags hold, without a Unicode property lookup.
            if scalar.value < 0x80 {
                switch scalar.value {
                case 0x61...0x7A, 0x30...0x39: current.append(scalar)
                case 0x41...0x5A: current.append(Unicode.Scalar(scalar.value + 0x20)!)
                default: flush()
                }
                continue
            }
            let properties = scalar.properties
            switch properties.generalCategory {
            case .nonspacingMark, .enclosingMark:
                // A decomposed accent: the letter before it stays as it is.
                continue
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber, .privateUse:
                if isCJK(scalar) {
                    flush()
                    words.append(Word(text: String(scalar), isCJK: true))
                } else if let base = DiacriticTable.folded[scalar] {
                    current.append(base)
                } else {
                    for lower in properties.lowercaseMapping.unicodeScalars {
                        switch lower.properties.generalCategory {
                        case .nonspacingMark, .enclosingMark: continue
                        default: current.append(lower)
                        }
                    }
                }
            default:
                flush()
            }
        }
        flush()
        return words
    }

    /// The words joined by single spaces: what the index's full-text table holds.
    public static func indexed(_ text: String?) -> String {
        guard let text else { return "" }
        if let folded = indexedASCII(text) { return folded }
        return words(text).map(\.text).joined(separator: " ")
    }

    /// `indexed` for all-ASCII text (most tags), byte by byte: the library
    /// pane's tree folds every album and artist name it groups and sorts on
    /// each key of the filter, and building a `Word` per word cost most of
    /// that. Nil when the text holds anything else.
    static func indexedASCII(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var folded: [UInt8] = []
            folded.reserveCapacity(bytes.count)
            var pendingSpace = false
            for byte in bytes {
                switch byte {
                case 0x61...0x7A, 0x30...0x39, 0x41...0x5A:
                    if pendingSpace {
                        folded.append(0x20)
                        pendingSpace = false
                    }
                    folded.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
                case 0x80...:
                    return nil
                default:
                    pendingSpace = !folded.isEmpty
                }
            }
            return String(decoding: folded, as: UTF8.self)
        }
    }

    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x2E80...0x2FDF, 0x3040...0x30FF, 0x3130...0x318F, 0x31F0...0x31FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA960...0xA97F, 0xAC00...0xD7FF, 0xF900...0xFAFF,
             0xFF66...0xFF9F, 0x20000...0x2FA1F:
            return true
        default:
            return false
        }
    }
}
