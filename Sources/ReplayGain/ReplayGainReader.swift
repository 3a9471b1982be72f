import BookFormat

/// A file's ReplayGain from its head: the ID3v2 tag (TXXX, then RVA2), then
/// LAME's Info tag for what the ID3 tag lacks (a tagger's values are newer
/// than the encoder's). Other formats' tags come from their decoder.
public enum ReplayGainReader {
    /// Enough for the largest first MPEG frame (1,441 bytes at 320 kbit/s, 32 kHz) and any padding before it.
    static let audioHeadBytes = 4096

    public static func read(path: String) -> ReplayGainInfo {
        guard let (tagBytes, audio) = try? TagFileReader.tagAndAudioHead(atPath: path, audioBytes: audioHeadBytes) else {
            return ReplayGainInfo()
        }
        var info = ReplayGainInfo()
        if !tagBytes.isEmpty, let tag = try? ID3v2Tag(bytes: tagBytes) { info = ID3ReplayGain.info(from: tag) }
        return info.filling(from: LameReplayGain.info(fromFirstFrame: audio))
    }
}
