import BookFormat

/// One track of a cue sheet (`SHEET.cue#N`, see `CueTrackPath`): the image
/// file's own decoder, moved to the track's `INDEX 01` and stopped at the
/// next track's. No C library of its own: it wraps whichever implementation
/// `Decoders` picks for the image, so every format the player reads can be
/// an album image.
///
/// Gapless: consecutive tracks are consecutive ranges of one decode, and the
/// wrapped decoder's seeks are exact, so the tracks played one after another
/// give the image's frames sample for sample. Both ends of a range are the
/// same conversion of the sheet's CD frames, so each join is where the
/// previous track stopped.
final class CueTrackDecoder: Decoder {
    let path: String
    private let inner: any Decoder
    private let track: CueTrack
    /// The range in output frames of the image.
    private let startFrame: Int
    private let endFrame: Int?
    /// Output frames of the track read so far (or sought to).
    private var position = 0

    init(trackPath path: String, target: AudioFormat?) throws(DecoderError) {
        guard let name = CueTrackPath(path) else {
            throw DecoderError(.unreadable, path: path, detail: "not a cue sheet track (SHEET.cue#N)")
        }
        switch CueTrack.resolve(name) {
        case .failure(let error): throw DecoderError(.missing, path: path, detail: error.message)
        case .success(let resolved): track = resolved
        }
        self.path = path
        inner = try Decoders.open(path: track.audioPath, target: target)
        (startFrame, endFrame) = track.frameRange(rate: inner.format.rate)
        if let length = inner.lengthInFrames, inner.lengthIsExact, startFrame >= length {
            inner.close()
            throw DecoderError(.library, path: path,
                               detail: "\(name.sheetPath): track \(name.trackNumber) starts after the end of '\(track.audioPath)'")
        }
        do { try inner.seek(toFrame: startFrame) } catch {
            inner.close()
            throw error
        }
    }

    /// Never chosen by content: `Decoders.open` routes a `SHEET.cue#N` path here by its form.
    static func accepts(_ head: FileHead) -> Bool { false }

    convenience init(path: String, head: FileHead, target: AudioFormat?) throws(DecoderError) {
        try self.init(trackPath: path, target: target)
    }

    var format: AudioFormat { inner.format }
    var sourceFormat: AudioFormat { inner.sourceFormat }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(DecoderError) -> DecoderReadResult {
        var window = buffer
        if let endFrame {
            let left = endFrame - startFrame - position
            guard left > 0 else { return .end }
            window = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, left * format.bytesPerFrame)])
        }
        let result = try inner.read(into: window)
        if case .frames(let count) = result { position += count }
        return result
    }

    func seek(toFrame frame: Int) throws(DecoderError) {
        let clamped = max(0, endFrame.map { min(frame, $0 - startFrame) } ?? frame)
        try inner.seek(toFrame: startFrame + clamped)
        position = clamped
    }

    var lengthInFrames: Int? {
        if let endFrame { return endFrame - startFrame }
        return inner.lengthInFrames.map { max(0, $0 - startFrame) }
    }

    /// A track that ends at the next one's start is as long as its range; the
    /// last one is as exact as the image's length.
    var lengthIsExact: Bool { endFrame != nil || inner.lengthIsExact }

    func scan() throws(DecoderError) {
        guard endFrame == nil, !inner.lengthIsExact else { return }
        try inner.scan()
    }

    var gaplessTrim: GaplessTrim? { inner.gaplessTrim }
    var streamInfo: StreamInfo { inner.streamInfo }

    /// The image's tags for this track (`AudioTags.forTrack`).
    var tags: AudioTags { inner.tags.forTrack(track) }

    func takeDamage() -> [String] { inner.takeDamage() }

    func close() { inner.close() }
}
