/// An MP3's length from its first frame, the way a scan can afford it for
/// 100,000 files: the Xing/Info (or VBRI) frame count when the encoder wrote
/// one, less LAME's encoder delay and padding (what a gapless decode leaves
/// out), else the constant-bitrate estimate from the file's size. Reading the
/// first few kilobytes is enough; no decoder is opened. Files this does not
/// recognise go to the decoder.
public struct MPEGAudioLength: Equatable, Sendable {
    public let seconds: Double
    /// 1, 2 or 3.
    public let layer: Int
    public let sampleRate: Int
    /// 1 or 2, from the frame's channel mode.
    public let channels: Int

    /// `bytes`: the file from where its audio starts (after an ID3v2 tag), at
    /// least a few kilobytes; `audioBytes`: how long the audio part is.
    public init?(bytes: ArraySlice<UInt8>, audioBytes: Int64) {
        var index = bytes.startIndex
        // A frame sync within the first 4 KB (some encoders leave padding).
        while index + 4 <= bytes.endIndex, index - bytes.startIndex < 4096 {
            if let header = MPEGFrameHeader(bytes, at: index - bytes.startIndex),
               Self.nextFrameAgrees(bytes, at: index, header: header) {
                self.init(header: header, frame: bytes[index...], audioBytes: audioBytes - Int64(index - bytes.startIndex))
                return
            }
            index += 1
        }
        return nil
    }

    private init(header: MPEGFrameHeader, frame: ArraySlice<UInt8>, audioBytes: Int64) {
        layer = header.layer
        sampleRate = header.sampleRate
        channels = header.mono ? 1 : 2
        if let counted = Self.frameCount(frame, header: header) {
            let samples = counted.frames * header.samplesPerFrame - counted.trimmed
            seconds = Double(max(0, samples)) / Double(header.sampleRate)
        } else {
            seconds = Double(audioBytes) * 8 / Double(header.bitrate * 1000)
        }
    }

    /// A false sync in the data is rare but real: where the buffer holds the
    /// next frame's start, it must be a header of the same stream.
    private static func nextFrameAgrees(_ bytes: ArraySlice<UInt8>, at index: Int, header: MPEGFrameHeader) -> Bool {
        let next = index + header.frameLength
        guard next + 4 <= bytes.endIndex else { return true }
        guard let following = MPEGFrameHeader(bytes, at: next - bytes.startIndex) else { return false }
        return following.layer == header.layer && following.sampleRate == header.sampleRate
    }

    /// The Xing/Info or VBRI frame count, and the samples LAME's tag says the
    /// encoder added (delay + padding), when the first frame carries them.
    private static func frameCount(_ frame: ArraySlice<UInt8>, header: MPEGFrameHeader) -> (frames: Int, trimmed: Int)? {
        func word(_ at: Int) -> Int? {
            let start = frame.startIndex + at
            guard start + 4 <= frame.endIndex else { return nil }
            return Int(frame[start]) << 24 | Int(frame[start + 1]) << 16 | Int(frame[start + 2]) << 8 | Int(frame[start + 3])
        }
        func tag(_ at: Int) -> String? {
            let start = frame.startIndex + at
            guard start + 4 <= frame.endIndex else { return nil }
            return String(decoding: frame[start..<(start + 4)], as: UTF8.self)
        }
        let xing = 4 + header.sideInformationLength
        if let name = tag(xing), name == "Xing" || name == "Info", let flags = word(xing + 4), flags & 1 != 0,
           let frames = word(xing + 8) {
            // LAME's extension: delay and padding, 12 bits each, 141 bytes after "Xing".
            var trimmed = 0
            var offset = xing + 8
            if flags & 1 != 0 { offset += 4 }
            if flags & 2 != 0 { offset += 4 }
            if flags & 4 != 0 { offset += 100 }
            if flags & 8 != 0 { offset += 4 }
            let delayAt = frame.startIndex + offset + 21
            if tag(offset).map({ $0 == "LAME" || $0 == "Lavf" || $0 == "Lavc" }) == true, delayAt + 3 <= frame.endIndex {
                let delay = Int(frame[delayAt]) << 4 | Int(frame[delayAt + 1]) >> 4
                let padding = (Int(frame[delayAt + 1]) & 0x0F) << 8 | Int(frame[delayAt + 2])
                trimmed = delay + padding
            }
            return (frames, trimmed)
        }
        if tag(36) == "VBRI", let frames = word(36 + 14) { return (frames, 0) }
        return nil
    }
}
