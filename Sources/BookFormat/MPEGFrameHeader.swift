/// The four bytes that start an MPEG audio frame (layers I, II and III of
/// MPEG-1, MPEG-2 and MPEG-2.5): a 12-bit sync (11 bits and the version's
/// high bit), version, layer, bitrate, sample rate and padding, from which the
/// frame's length follows. nil for the reserved values (version 01, layer 00,
/// bitrate 1111, sample rate 11, emphasis 10) and for the free format
/// (bitrate 0000), whose frame length no header gives.
public struct MPEGFrameHeader: Equatable, Sendable {
    /// The longest frame: layer II of MPEG-2.5 at 160 kbit/s and 8 kHz, padded.
    public static let maximumLength = 2881

    /// 1, 2 or 3.
    public let layer: Int
    /// 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5 (the header's two version bits).
    public let version: Int
    public let sampleRate: Int
    /// kbit/s.
    public let bitrate: Int
    public let padding: Bool
    /// The channel mode says one channel.
    public let mono: Bool
    /// Bytes from this header to the next frame's.
    public let frameLength: Int

    /// The header at `offset` in `bytes`; nil past their end.
    public init?(_ bytes: some RandomAccessCollection<UInt8>, at offset: Int) {
        guard offset >= 0, bytes.count >= 4, offset <= bytes.count - 4 else { return nil }
        let start = bytes.index(bytes.startIndex, offsetBy: offset)
        // The sync first: a scan asks at every byte, and most are not one.
        guard bytes[start] == 0xFF else { return nil }
        let b = (bytes[start], bytes[bytes.index(start, offsetBy: 1)], bytes[bytes.index(start, offsetBy: 2)],
                 bytes[bytes.index(start, offsetBy: 3)])
        guard b.1 & 0xE0 == 0xE0 else { return nil }
        let version = Int(b.1 >> 3) & 3
        let layerBits = Int(b.1 >> 1) & 3
        let bitrateIndex = Int(b.2 >> 4)
        let rateIndex = Int(b.2 >> 2) & 3
        guard version != 1, layerBits != 0, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3, b.3 & 3 != 2 else {
            return nil
        }
        self.version = version
        layer = 4 - layerBits
        let mpeg1 = version == 3
        sampleRate = [44100, 48000, 32000][rateIndex] / (mpeg1 ? 1 : version == 2 ? 2 : 4)
        let table: [Int] = switch (mpeg1, layer) {
        case (true, 1): [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (true, 2): [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (true, _): [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (false, 1): [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        case (false, _): [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        bitrate = table[bitrateIndex - 1]
        padding = b.2 & 2 != 0
        mono = b.3 >> 6 == 3
        let pad = padding ? 1 : 0
        if layer == 1 {
            frameLength = (12 * bitrate * 1000 / sampleRate + pad) * 4
        } else {
            frameLength = (layer == 3 && !mpeg1 ? 576 : 1152) / 8 * bitrate * 1000 / sampleRate + pad
        }
    }

    /// Samples per channel in one frame.
    public var samplesPerFrame: Int { layer == 1 ? 384 : (layer == 3 && version != 3) ? 576 : 1152 }

    /// Layer III's side information, after which a Xing/Info tag sits.
    public var sideInformationLength: Int {
        guard layer == 3 else { return 0 }
        return version == 3 ? (mono ? 17 : 32) : (mono ? 9 : 17)
    }

    /// Whether `other` can be the next frame of the same stream: the same
    /// version, layer and sample rate (bitrates change in a VBR file).
    public func continues(with other: MPEGFrameHeader) -> Bool {
        other.version == version && other.layer == layer && other.sampleRate == sampleRate
    }
}
