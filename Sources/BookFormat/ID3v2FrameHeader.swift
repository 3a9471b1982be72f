/// The 10-byte header in front of each frame (ID3v2.3 and 2.4): ID, size
/// and two flag bytes.
enum ID3v2FrameHeader {
    static let length = 10

    /// Frame IDs are four characters of A-Z and 0-9 (ID3v2.3 §3.3, 2.4 §4).
    static func isValidID(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count == 4 && bytes.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
    }
}
