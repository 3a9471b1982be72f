/// Tells an AAC station's frames from false syncs. ADTS, the framing AAC
/// stations send, marks each frame with a 12-bit syncword, which audio data
/// also holds now and then; a listener who joins mid-stream starts inside a
/// frame, and FFmpeg's ADTS demuxer hands over whatever follows a syncword as a
/// packet. Decoded, such a packet claims another layout (a program config, 5.1)
/// and FFmpeg's AAC decoder allocates a 535 KB channel element for each element
/// it names, zeroed, kept for the connection's life: a station's memory rose
/// by 1.6 MB in one run of five (the bench's limit is 20 MB), and the listener
/// read "damaged audio at 0.0 s".
///
/// ISO/IEC 14496-3 keeps the fixed part of the header (ID, layer, profile,
/// sampling frequency index, channel configuration) the same for the whole
/// stream. Two packets in a row with the same fixed header, agreeing with what
/// the stream was found to be (its rate, its channels), set it: after a real
/// frame the demuxer reads the next from where that frame ends, where after a
/// false sync it reads from where a random length ends and searches again, so
/// a false sync is very seldom followed by a packet like it. The first of the
/// two is dropped with what came before it; from then on a packet whose fixed
/// header differs is not a frame of this stream.
public struct ADTSFrameCheck: Sendable {
    public enum Verdict: Equatable, Sendable {
        case frame
        /// Not a frame of this stream; `beforeFirst`: no frame was accepted yet
        /// (where a connection starts mid-frame, not damage).
        case falseSync(beforeFirst: Bool)
    }

    /// The sampling frequencies of the 4-bit index (13 to 15 are reserved).
    static let rates = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350]

    private let sampleRate: Int
    private let channels: Int
    /// ID, layer, protection, profile, frequency index and channel configuration, as one number.
    private var fixed: UInt32?
    /// The last packet's, while `fixed` is not set.
    private var candidate: UInt32?

    /// `sampleRate`, `channels`: what the stream's probe found (0: unknown).
    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Judges a packet by its first bytes (its ADTS header) and its size.
    public mutating func judge(_ header: UnsafeRawBufferPointer, packetSize: Int) -> Verdict {
        guard header.count >= 7, header[0] == 0xFF, header[1] & 0xF6 == 0xF0 else { return notAFrame() }
        let protectionAbsent = header[1] & 0x01 == 1
        let frameLength = Int(header[3] & 0x03) << 11 | Int(header[4]) << 3 | Int(header[5]) >> 5
        // A frame holds its header (7 bytes, 9 with a checksum) and is the whole packet.
        guard frameLength >= (protectionAbsent ? 7 : 9), frameLength <= packetSize else { return notAFrame() }
        // ID, layer and protection (byte 1's low nibble); profile, index and
        // configuration (byte 2 but its private bit, and byte 3's top two bits).
        let key = UInt32(header[1] & 0x0F) << 16 | UInt32(header[2] & 0xFD) << 8 | UInt32(header[3] & 0xC0)
        if let fixed { return key == fixed ? .frame : .falseSync(beforeFirst: false) }
        guard agreesWithProbe(index: Int(header[2] >> 2) & 0x0F, configuration: Int(header[2] & 0x01) << 2 | Int(header[3] >> 6)),
              candidate == key else {
            candidate = key
            return .falseSync(beforeFirst: true)
        }
        fixed = key
        return .frame
    }

    /// A packet with no header of a frame: it breaks a run of two.
    private mutating func notAFrame() -> Verdict {
        if fixed == nil { candidate = nil }
        return .falseSync(beforeFirst: fixed == nil)
    }

    /// HE-AAC's header gives the core's rate (half what it decodes to), and
    /// parametric stereo's says mono where two channels come out.
    private func agreesWithProbe(index: Int, configuration: Int) -> Bool {
        guard index < Self.rates.count else { return false }
        let rate = Self.rates[index]
        let rateAgrees = sampleRate <= 0 || sampleRate == rate || sampleRate == rate * 2
        // Configurations 1-6 are that many channels, 7 is 7.1; 0: a program config element says.
        let named = configuration == 7 ? 8 : configuration
        let channelsAgree = channels <= 0 || configuration == 0 || named == channels || (named == 1 && channels == 2)
        return rateAgrees && channelsAgree
    }
}
