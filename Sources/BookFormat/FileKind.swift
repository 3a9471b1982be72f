/// What a file is, from its first bytes, for the one line that refuses a
/// file no decoder takes ("a JPEG image", "a ZIP archive") or names the format
/// whose decoder failed ("Monkey's Audio, but the decoder failed: ..."). A
/// table of magic numbers, pure: which decoder opens a file is
/// `Decoders.open`'s choice, never this.
public struct FileKind: Equatable, Sendable {
    /// With its article where it is a thing ("a PNG image"), without where it
    /// is a format's name ("WavPack").
    public let name: String
    /// An audio format (its decoder failed) rather than something else.
    public let isAudio: Bool

    /// Magic numbers at their offsets; every part must match.
    struct Signature {
        let kind: FileKind
        let parts: [(offset: Int, bytes: [UInt8])]

        init(_ name: String, audio: Bool = false, _ parts: (Int, String)...) {
            kind = FileKind(name: name, isAudio: audio)
            self.parts = parts.map { ($0.0, Array($0.1.utf8)) }
        }

        init(_ name: String, audio: Bool = false, bytes: [UInt8], at offset: Int = 0) {
            kind = FileKind(name: name, isAudio: audio)
            parts = [(offset, bytes)]
        }

        func matches(_ head: [UInt8]) -> Bool {
            parts.allSatisfy { part in
                head.count >= part.offset + part.bytes.count
                    && head[part.offset..<part.offset + part.bytes.count].elementsEqual(part.bytes)
            }
        }
    }

    static let signatures: [Signature] = [
        // Audio whose decoder can fail.
        Signature("Monkey's Audio", audio: true, (0, "MAC ")),
        Signature("WavPack", audio: true, (0, "wvpk")),
        Signature("Musepack", audio: true, (0, "MPCK")),
        Signature("Musepack", audio: true, (0, "MP+")),
        Signature("TTA (True Audio)", audio: true, (0, "TTA1")),
        Signature("DSD (DSF)", audio: true, (0, "DSD ")),
        Signature("DSD (DFF)", audio: true, (0, "FRM8"), (12, "DSD ")),
        Signature("AIFF", audio: true, (0, "FORM"), (8, "AIFF")),
        Signature("AIFF-C", audio: true, (0, "FORM"), (8, "AIFC")),
        Signature("WAV", audio: true, (0, "RIFF"), (8, "WAVE")),
        Signature("FLAC", audio: true, (0, "fLaC")),
        Signature("Ogg", audio: true, (0, "OggS")),
        Signature("MP4", audio: true, (4, "ftyp")),
        Signature("ASF (WMA)", audio: true, bytes: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]),
        Signature("Matroska", audio: true, bytes: [0x1A, 0x45, 0xDF, 0xA3]),
        Signature("Sun audio", audio: true, (0, ".snd")),
        Signature("RealAudio", audio: true, bytes: [0x2E, 0x72, 0x61, 0xFD]),
        Signature("a MIDI file", (0, "MThd")),
        // Other things a music folder holds.
        Signature("a JPEG image", bytes: [0xFF, 0xD8, 0xFF]),
        Signature("a PNG image", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
        Signature("a GIF image", (0, "GIF8")),
        Signature("a WebP image", (0, "RIFF"), (8, "WEBP")),
        Signature("a TIFF image", bytes: [0x49, 0x49, 0x2A, 0x00]),
        Signature("a TIFF image", bytes: [0x4D, 0x4D, 0x00, 0x2A]),
        Signature("a PDF document", (0, "%PDF-")),
        Signature("a ZIP archive", bytes: [0x50, 0x4B, 0x03, 0x04]),
        Signature("a ZIP archive", bytes: [0x50, 0x4B, 0x05, 0x06]),
        Signature("a gzip archive", bytes: [0x1F, 0x8B]),
        Signature("a bzip2 archive", (0, "BZh")),
        Signature("an xz archive", bytes: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]),
        Signature("a 7-Zip archive", bytes: [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]),
        Signature("a RAR archive", (0, "Rar!")),
        Signature("a tar archive", (257, "ustar")),
        Signature("an ELF executable", bytes: [0x7F, 0x45, 0x4C, 0x46]),
        Signature("a SQLite database", (0, "SQLite format 3")),
    ]

    /// The kind of the file whose first bytes (up to a few kilobytes) are
    /// `head`; nil when no signature matches and they are not text.
    public static func of(_ head: [UInt8]) -> FileKind? {
        if head.isEmpty { return FileKind(name: "an empty file", isAudio: false) }
        if let signature = signatures.first(where: { $0.matches(head) }) { return signature.kind }
        return isText(head) ? FileKind(name: "a text file", isAudio: false) : nil
    }

    /// UTF-8 (a BOM allowed) without control characters other than tab, line
    /// and page breaks. The last three bytes may be a character cut by the
    /// head's end.
    static func isText(_ head: [UInt8]) -> Bool {
        let controls = head.contains { ($0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains($0)) || $0 == 0x7F }
        guard !head.isEmpty, !controls else { return false }
        for cut in 0...min(3, head.count - 1) where String(validating: head.dropLast(cut), as: UTF8.self) != nil {
            return true
        }
        return false
    }
}
