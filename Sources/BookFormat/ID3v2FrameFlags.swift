/// The parts of a frame's two flag bytes that change how its body is read.
/// ID3v2.3 and ID3v2.4 place the same ideas at different bits and append
/// their extra header bytes in a different order, so both are decoded here
/// into one shape.
struct ID3v2FrameFlags: Equatable, Sendable {
    var isCompressed = false
    var isEncrypted = false
    var hasGroupIdentity = false
    /// 2.4 only: this frame's body is unsynchronised.
    var isUnsynchronised = false
    /// 2.4 only: a 4-byte syncsafe decoded length precedes the body.
    var hasDataLengthIndicator = false
    /// 2.3 only: a 4-byte decompressed size precedes the body.
    var hasDecompressedSize = false

    init(majorVersion: UInt8, formatByte: UInt8) {
        if majorVersion == 3 {
            // ID3v2.3 §3.3.1: %ijk00000 — compression, encryption, grouping.
            isCompressed = formatByte & 0x80 != 0
            hasDecompressedSize = isCompressed
            isEncrypted = formatByte & 0x40 != 0
            hasGroupIdentity = formatByte & 0x20 != 0
        } else {
            // ID3v2.4 §4.1.2: %0h00kmnp — grouping, compression, encryption,
            // unsynchronisation, data length indicator.
            hasGroupIdentity = formatByte & 0x40 != 0
            isCompressed = formatByte & 0x08 != 0
            isEncrypted = formatByte & 0x04 != 0
            isUnsynchronised = formatByte & 0x02 != 0
            hasDataLengthIndicator = formatByte & 0x01 != 0
        }
    }

    /// Bytes between the frame header and the frame's content. ID3v2.3 adds
    /// them in flag order (decompressed size, encryption method, group ID);
    /// ID3v2.4 in its own flag order (group ID, encryption method, data
    /// length indicator). Either way only the total matters to a reader that
    /// skips compressed and encrypted frames.
    var extraHeaderLength: Int {
        (hasDecompressedSize ? 4 : 0) + (isEncrypted ? 1 : 0) + (hasGroupIdentity ? 1 : 0)
            + (hasDataLengthIndicator ? 4 : 0)
    }
}
