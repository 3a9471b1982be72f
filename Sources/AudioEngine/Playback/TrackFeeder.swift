/// Decodes a list of files, one after the other, into the audio ring.
///
/// The first file that decodes fixes the stream format; later files are
/// converted to it by libmpg123 (see `Decoder`), so the queue plays through
/// one open device. Files that cannot be decoded are reported and skipped.
/// Positions are stream frames: frame 0 is the first frame of the first file.
public final class TrackFeeder {
    public struct Track: Equatable, Sendable {
        public let index: Int
        public let path: String
        public let startFrame: Int
        /// Set once the decoder has reached the end of the file.
        public internal(set) var endFrame: Int?
        /// The file's length as its header states it, when exact.
        public let expectedFrames: Int?
    }

    public enum Event: Sendable {
        case failed(DecoderError)
        /// The file ended before its header said it would.
        case truncated(path: String, decodedFrames: Int, expectedFrames: Int)
    }

    public private(set) var paths: [String]
    public private(set) var format: AudioFormat?
    public private(set) var tracks: [Track] = []
    public private(set) var framesQueued = 0
    public private(set) var isExhausted = false
    private var nextIndex = 0
    private var decoder: Decoder?
    private var pendingEvents: [Event] = []

    public init(paths: [String]) {
        self.paths = paths
    }

    /// Opens files until one decodes; returns its format, or nil when none does.
    public func openFirst() -> AudioFormat? {
        openNext()
        return format
    }

    /// Events since the last call.
    public func takeEvents() -> [Event] {
        defer { pendingEvents.removeAll() }
        return pendingEvents
    }

    private func openNext() {
        decoder = nil
        while nextIndex < paths.count {
            let index = nextIndex
            nextIndex += 1
            do {
                let opened = try Decoder(path: paths[index], target: format)
                if format == nil { format = opened.format }
                let expected = opened.lengthIsExact ? opened.lengthInFrames : nil
                decoder = opened
                tracks.append(Track(index: index, path: paths[index], startFrame: framesQueued, endFrame: nil,
                                    expectedFrames: expected))
                return
            } catch {
                pendingEvents.append(.failed(error))
            }
        }
        isExhausted = true
    }

    /// Decodes into the ring until it is full or the list is exhausted.
    /// Returns the frames added.
    @discardableResult
    public func fill(_ producer: SPSCRing.Producer, maxFrames: Int = .max) -> Int {
        var added = 0
        while added < maxFrames, let decoder {
            let region = producer.writableRegion(maxSlots: maxFrames - added)
            guard region.count > 0 else { break }
            let result: Decoder.ReadResult
            do {
                result = try decoder.read(into: region)
            } catch {
                pendingEvents.append(.failed(error))
                finishTrack()
                continue
            }
            switch result {
            case .frames(let frames):
                producer.commit(frames)
                framesQueued += frames
                added += frames
                if frames == 0 { finishTrack() }
            case .end:
                finishTrack()
            }
        }
        return added
    }

    func replaceDecoder(_ decoder: Decoder, keepingTracks count: Int, framesQueued: Int, nextIndex: Int) {
        tracks.removeSubrange(count...)
        tracks[count - 1].endFrame = nil
        self.decoder = decoder
        self.framesQueued = framesQueued
        self.nextIndex = nextIndex
        isExhausted = false
    }

    func appendEvent(_ event: Event) { pendingEvents.append(event) }

    private func finishTrack() {
        guard var track = tracks.popLast() else { return }
        track.endFrame = framesQueued
        let decoded = framesQueued - track.startFrame
        // Tolerance: before a file is decoded, libmpg123's length from the LAME
        // header can exceed the gapless-trimmed decode by a few MPEG frames.
        if let expected = track.expectedFrames, decoded + max(4608, expected / 50) < expected {
            pendingEvents.append(.truncated(path: track.path, decodedFrames: decoded, expectedFrames: expected))
        }
        tracks.append(track)
        openNext()
    }
}

extension TrackFeeder {
    /// Adds files to the end of the queue (the full-screen player's `e`). When
    /// the list had run out but the stream has not finished, decoding goes on
    /// with them, gaplessly.
    public func append(_ more: [String]) {
        paths += more
        if isExhausted && decoder == nil {
            isExhausted = false
            openNext()
        }
    }

    /// Decodes `paths[index]` (or the first decodable file after it) next,
    /// from the end of what is queued now: the current file ends there. The
    /// caller then moves playback to the returned stream frame (the new
    /// track's start) with `PlaybackEngine.resumeMedia(from:fadeFrames:)`.
    /// Nil when no file from `index` on can be decoded.
    public func jump(toPathIndex index: Int) -> Int? {
        guard index >= 0, index < paths.count, format != nil else { return nil }
        if var current = tracks.popLast() {
            current.endFrame = current.endFrame ?? framesQueued
            tracks.append(current)
        }
        decoder = nil
        nextIndex = index
        isExhausted = false
        let count = tracks.count
        openNext()
        return tracks.count > count ? tracks.last?.startFrame : nil
    }

    /// Moves decoding to `frame` (a stream frame): reopens the file that holds
    /// it, seeks there sample-accurately, and forgets the files after it so
    /// they are decoded again in order. Returns false when no file holds it.
    public func seek(toStreamFrame frame: Int) -> Bool {
        guard let format else { return false }
        guard let index = tracks.lastIndex(where: { $0.startFrame <= frame }) else { return false }
        let track = tracks[index]
        do {
            let opened = try Decoder(path: track.path, target: format)
            try opened.seek(toFrame: frame - track.startFrame)
            replaceDecoder(opened, keepingTracks: index + 1, framesQueued: frame, nextIndex: track.index + 1)
            return true
        } catch {
            appendEvent(.failed(error))
            return false
        }
    }
}
