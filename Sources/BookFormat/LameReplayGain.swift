/// The ReplayGain LAME writes into its Info tag (in the first MPEG frame,
/// after the Xing fields): a track ("radio") and an album ("audiophile") gain
/// in tenths of a dB and the track's peak, which lame computes while encoding
/// unless told not to. The layout is LAME's "Info tag" specification (rev 1).
public enum LameReplayGain {
    /// Enough for LAME's fields: the Xing/Info tag starts within the frame's
    /// first 64 bytes and the gains end at most 203 bytes in.
    public static let headBytes = 512

    /// The values in the first frame's bytes, or empty when there is no LAME tag.
    public static func info(fromFirstFrame bytes: [UInt8]) -> ReplayGainInfo {
        var info = ReplayGainInfo()
        // The Xing/Info tag follows the side information, whose size depends on
        // the MPEG version and channel mode: searched for within the first bytes.
        guard let xing = find("Xing", in: bytes) ?? find("Info", in: bytes), xing + 8 <= bytes.count else { return info }
        let flags = bigEndian(bytes, at: xing + 4, count: 4)
        var lame = xing + 8
        if flags & 1 != 0 { lame += 4 }    // frames
        if flags & 2 != 0 { lame += 4 }    // bytes
        if flags & 4 != 0 { lame += 100 }  // seek table
        if flags & 8 != 0 { lame += 4 }    // quality
        guard lame + 19 <= bytes.count, bytes[lame..<lame + 4].elementsEqual("LAME".utf8) || bytes[lame..<lame + 4].elementsEqual("Lavc".utf8)
                || bytes[lame..<lame + 4].elementsEqual("Lavf".utf8) else { return info }
        // Peak: fixed point with 23 fraction bits (LAME's VbrTag.c); 0 means not computed.
        let peak = bigEndian(bytes, at: lame + 11, count: 4)
        if peak > 0 { info.trackPeak = Double(peak) / Double(1 << 23) }
        for field in [bigEndian(bytes, at: lame + 15, count: 2), bigEndian(bytes, at: lame + 17, count: 2)] {
            // Name (3 bits: 1 radio, 2 audiophile), originator (3), sign (1), value in 0.1 dB (9).
            let name = field >> 13
            let originator = (field >> 10) & 7
            guard originator != 0 else { continue }
            let magnitude = Double(field & 0x1FF) / 10
            let gain = field & 0x200 != 0 ? -magnitude : magnitude
            switch name {
            case 1: info.trackGain = gain
            case 2: info.albumGain = gain
            default: continue
            }
        }
        return info
    }

    private static func find(_ marker: String, in bytes: [UInt8]) -> Int? {
        let needle = Array(marker.utf8)
        let limit = min(bytes.count, 64) - needle.count
        guard limit >= 0 else { return nil }
        return (0...limit).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }
}
