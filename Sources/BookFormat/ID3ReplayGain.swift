/// ReplayGain in ID3v2 tags, as the tools that write them do: `TXXX` frames
/// named `REPLAYGAIN_TRACK_GAIN` and the like (foobar2000, mp3gain, loudgain,
/// beets), and the older `RVA2` frame (id3v2.4's "relative volume adjustment",
/// written by normalize and QuodLibet) with the identification "track" or "album".
public enum ID3ReplayGain {
    public static func info(from tag: ID3v2Tag) -> ReplayGainInfo {
        let fields = tag.frames(withID: "TXXX").compactMap { frame -> (name: String, value: String)? in
            // TXXX: encoding, description, value; the text frame reader splits at the terminator.
            guard let text = try? ID3v2TextFrame(body: frame.body), text.values.count >= 2 else { return nil }
            return (text.values[0], text.values[1])
        }
        return info(userText: fields, in: tag)
    }

    /// The gains of TXXX frames already decoded (`fields`: description and
    /// first value), then of the tag's RVA2 frames for what they lack.
    static func info(userText fields: [(name: String, value: String)], in tag: ID3v2Tag) -> ReplayGainInfo {
        var info = ReplayGainInfo(fields: fields)
        for frame in tag.frames(withID: "RVA2") {
            guard let (identification, gain, peak) = rva2MasterVolume(frame.body) else { continue }
            switch identification.lowercased() {
            case "track" where info.trackGain == nil: info.trackGain = gain; info.trackPeak = info.trackPeak ?? peak
            case "album" where info.albumGain == nil: info.albumGain = gain; info.albumPeak = info.albumPeak ?? peak
            default: continue
            }
        }
        return info
    }

    /// RVA2: a Latin-1 identification ending in 0, then for each channel its
    /// type (1 is the master volume), the adjustment as a signed 16-bit number
    /// of 1/512 dB, the bit count of the peak and the peak itself (an unsigned
    /// number of that many bits, full scale at 2^(bits-1)).
    static func rva2MasterVolume(_ body: [UInt8]) -> (String, Double, Double?)? {
        guard let end = body.firstIndex(of: 0) else { return nil }
        let identification = String(body[..<end].map { Character(Unicode.Scalar($0)) })
        var at = end + 1
        while at + 4 <= body.count {
            let channel = body[at]
            let raw = Int16(bitPattern: UInt16(body[at + 1]) << 8 | UInt16(body[at + 2]))
            let bits = Int(body[at + 3])
            let peakBytes = (bits + 7) / 8
            guard at + 4 + peakBytes <= body.count else { return nil }
            if channel == 1 {
                var peak: Double?
                if bits > 0 && bits <= 64 {
                    var value: UInt64 = 0
                    for byte in body[(at + 4)..<(at + 4 + peakBytes)] { value = value << 8 | UInt64(byte) }
                    // Bits are left-aligned in the bytes when not a multiple of 8.
                    value >>= UInt64(peakBytes * 8 - bits)
                    peak = value > 0 ? Double(value) / Double(sign: .plus, exponent: bits - 1, significand: 1) : nil
                }
                return (identification, Double(raw) / 512, peak)
            }
            at += 4 + peakBytes
        }
        return nil
    }
}
