/// The header in front of each frame: in ID3v2.3 and 2.4 ten bytes (a
/// four-character ID, a size and two flag bytes); in ID3v2.2 six (a
/// three-character ID and a 24-bit size, no flags).
enum ID3v2FrameHeader {
    static let length = 10

    static func length(majorVersion: UInt8) -> Int { majorVersion == 2 ? 6 : 10 }

    /// Frame IDs are four characters of A-Z and 0-9 (ID3v2.3 §3.3, 2.4 §4),
    /// three in 2.2 (§4).
    static func isValidID(_ bytes: ArraySlice<UInt8>, majorVersion: UInt8 = 4) -> Bool {
        bytes.count == (majorVersion == 2 ? 3 : 4) && bytes.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// ID3v2.2's text, comment, identifier and picture frames under the 2.3
    /// names mutagen and TagLib upgrade them to, so one reader serves all
    /// versions; PIC's body also differs and is rewritten (`ID3v2FrameList`).
    static let version22Names: [String: String] = [
        "TT1": "TIT1", "TT2": "TIT2", "TT3": "TIT3", "TP1": "TPE1", "TP2": "TPE2", "TP3": "TPE3", "TP4": "TPE4",
        "TAL": "TALB", "TRK": "TRCK", "TPA": "TPOS", "TYE": "TYER", "TDA": "TDAT", "TIM": "TIME", "TCO": "TCON",
        "TCM": "TCOM", "TXT": "TEXT", "TLA": "TLAN", "TCR": "TCOP", "TEN": "TENC", "TBP": "TBPM", "TKE": "TKEY",
        "TOA": "TOPE", "TOT": "TOAL", "TOR": "TORY", "TPB": "TPUB", "TRC": "TSRC", "TSS": "TSSE", "TXX": "TXXX",
        "COM": "COMM", "UFI": "UFID", "PIC": "APIC", "ULT": "USLT", "SLT": "SYLT", "WXX": "WXXX", "RVA": "RVAD",
    ]
}
