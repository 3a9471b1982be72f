import AudioDecoding
import SpokenAudio

/// Decodes a list of files, one after the other, into the audio ring.
///
/// The first file that decodes fixes the stream format; later files are
/// converted to it by the decoder (see `Decoder.init`), so the queue plays through
/// one open device. Files that cannot be decoded are reported and skipped.
/// Positions are stream frames: frame 0 is the first frame of the first file.
public final class TrackFeeder {
    public struct Track: Equatable, Sendable {
        /// The queue entry it is: renumbered when entries before it go or move (`rearrange`).
        public internal(set) var index: Int
        public let path: String
        public let startFrame: Int
        /// Set once the decoder has reached the end of the file.
        public internal(set) var endFrame: Int?
        /// The file's length: from its Xing/Info header when it has one,
        /// else the decoder's estimate (libmpg123's, from the file's size: right
        /// for CBR, any distance off for VBR), for the progress shown and seek limits.
        public let expectedFrames: Int?
        /// Whether `expectedFrames` came from the header: only then does a
        /// shorter decode mean the file was cut short.
        public var expectedIsExact: Bool = true
    }

    public enum Event: Sendable {
        case failed(DecoderError)
        /// The file ended before its header said it would.
        case truncated(path: String, decodedFrames: Int, expectedFrames: Int)
    }

    /// The queue: files in play order. Tracks refer to it by index.
    public private(set) var paths: [String]
    public private(set) var format: AudioFormat?
    public private(set) var tracks: [Track] = []
    /// Source frames decoded so far (stream frames: before any speed change).
    public internal(set) var framesQueued = 0
    /// Every file is decoded and nothing is left in the speed stage or the spoken-audio stages.
    public var isExhausted: Bool {
        decodingEnded && stretcher == nil && (trimmer?.availableFrames ?? 0) == 0 && (leveller?.heldFrames ?? 0) == 0
    }
    /// Every file is decoded (the speed stage may still hold output).
    private var decodingEnded = false
    private var nextIndex = 0
    /// Repeat one: at the end of a track, the same queue entry is decoded again,
    /// joined gaplessly like any next track.
    public var repeatsTrack = false
    /// Asked once when decoding runs past the last entry: files to append
    /// (repeat all's next cycle), so the join stays gapless; nil or empty ends the queue.
    public var queueExtension: (() -> [String])?
    /// `framesQueued` when the queue was last extended: a pass that decoded nothing is not repeated.
    private var framesAtLastExtension = -1
    /// A track's own gain (ReplayGain), asked each time a file is opened for
    /// decoding; nil plays every file as decoded.
    public var trackGain: ((_ path: String, _ decoder: any Decoder) -> Float)?
    /// Hands the writer a gain from a ring index on (before the frames there
    /// are committed); false when it has no room yet (decoding waits).
    var publishTrackGain: ((_ ringIndex: Int, _ gain: Float) -> Bool)?
    /// The gain of the file being decoded, and the last one handed to the writer.
    var decodingGain: Float = 1
    var publishedGain: Float = 1
    private var decoder: (any Decoder)?
    private var pendingEvents: [Event] = []

    // Speed (see TrackFeeder+Speed.swift).
    public internal(set) var speed = PlaybackSpeed.normal
    /// libsonic between decoder and ring; nil at 1.0x, where nothing but the decoder touches the frames.
    var stretcher: TimeStretcher?
    /// Back at 1.0x: the stretcher hands out what it holds, then goes.
    var stretcherRetiring = false
    /// The end of the queue was pushed through the stretcher.
    var stretcherFlushed = false
    /// Decoded frames on their way into the stretcher.
    var stretchInput: UnsafeMutableRawBufferPointer?
    /// Output frames committed to the ring since the last seek, and where they are in source frames.
    public internal(set) var outputQueued = 0
    public internal(set) var positionMap = SpeedMap()
    /// The stream frame of the last seek's target: source frame 0 of `trimMap`.
    var sourceOrigin = 0

    // Spoken audio (see TrackFeeder+Spoken.swift).
    /// Pauses shortened: the setting, and the stage while it is on.
    public internal(set) var trimStrength = TrimStrength.off
    var trimmer: SilenceTrimmer?
    /// Voices levelled: the setting, and the stage while it is on.
    public internal(set) var voiceBoost = VoiceBoost.off
    var leveller: VoiceLeveller?
    /// A stage switched off hands out what it holds, then goes; nothing is decoded meanwhile.
    var trimmerRetiring = false
    var levellerRetiring = false
    /// Frames between the trimmer and the leveller.
    var stageBuffer: UnsafeMutableRawBufferPointer?
    /// Trimmed frames handed to the stretcher or the ring since the last seek.
    var stageOut = 0
    /// Trimmed frames (the speed map's source side) against the file's frames.
    public internal(set) var trimMap = TrimMap()
    /// The file last warmed (`warmNext`): the next one stays the same through
    /// many appends (an MPD client's 10,000 adds), and is warmed once.
    private var warmedPath: String?

    public init(paths: [String]) {
        self.paths = paths
    }

    deinit {
        stretchInput?.deallocate()
        stageBuffer?.deallocate()
    }

    /// Opens files until one decodes; returns its format, or nil when none does.
    public func openFirst() -> AudioFormat? {
        openNext()
        return format
    }

    /// Every file is converted to `format`, the first one too (an output whose
    /// format the user set). Before `openFirst`.
    public func fixFormat(_ format: AudioFormat) {
        self.format = format
    }

    /// An empty queue that later files join in `format` (converted to it).
    public func startEmpty(format: AudioFormat) {
        self.format = format
        decodingEnded = true
    }

    /// Events since the last call.
    public func takeEvents() -> [Event] {
        defer { pendingEvents.removeAll() }
        return pendingEvents
    }

    private func openNext() {
        decoder = nil
        // Only what gave frames repeats: a file that decodes to nothing would
        // otherwise be reopened forever within one `fill`.
        if repeatsTrack, let last = tracks.last, let end = last.endFrame, end > last.startFrame { nextIndex = last.index }
        if nextIndex >= paths.count, framesQueued > framesAtLastExtension, let more = queueExtension?(), !more.isEmpty {
            framesAtLastExtension = framesQueued
            paths += more
        }
        while nextIndex < paths.count {
            let index = nextIndex
            nextIndex += 1
            do {
                let opened = try Decoders.open(path: paths[index], target: format)
                if format == nil { format = opened.format }
                decoder = opened
                decodingGain = didOpen(opened, path: paths[index])
                tracks.append(Track(index: index, path: paths[index], startFrame: framesQueued, endFrame: nil,
                                    expectedFrames: opened.lengthInFrames, expectedIsExact: opened.lengthIsExact))
                warmNext()
                return
            } catch {
                pendingEvents.append(.failed(error))
            }
        }
        decodingEnded = true
    }

    /// Decodes into the ring until it is full or the list is exhausted.
    /// Returns the frames added (output frames: after the speed change).
    @discardableResult
    public func fill(_ producer: SPSCRing.Producer, maxFrames: Int = .max) -> Int {
        var added = 0
        filling: while added < maxFrames {
            // At the speed stage's 1.0x the mark is the track's first frame exactly;
            // at other speeds it is where the new file's frames enter the stretcher.
            if decodingGain != publishedGain {
                guard publishTrackGain?(producer.writeIndex(), decodingGain) ?? true else { break }
                publishedGain = decodingGain
            }
            if stretcher == nil && !speed.isNormal && decoder != nil {
                // Decoding goes on after the stretcher ended (files added at the queue's end).
                restartStretcherInPlace()
            }
            prepareSpokenStages()
            if stretcher != nil || trimmer != nil || leveller != nil {
                guard let frames = fillProcessed(producer, maxFrames: maxFrames - added) else { break }
                added += frames
                continue
            }
            guard let decoder else { break }
            let region = producer.writableRegion(maxSlots: maxFrames - added)
            guard region.count > 0 else { break }
            let result: DecoderReadResult
            do {
                result = try decoder.read(into: region)
            } catch {
                pendingEvents.append(.failed(error))
                finishTrack()
                continue
            }
            reportDamage(of: decoder)
            switch result {
            case .frames(let frames):
                producer.commit(frames)
                trimMap.append(source: framesQueued - sourceOrigin, frames: frames)
                stageOut += frames
                framesQueued += frames
                outputQueued += frames
                added += frames
                if frames == 0 { finishTrack() }
            case .end:
                finishTrack()
            case .notYet:
                // A stream waiting for the network: again on a later turn.
                break filling
            }
        }
        return added
    }

    func replaceDecoder(_ decoder: any Decoder, keepingTracks count: Int, framesQueued: Int, nextIndex: Int) {
        tracks.removeSubrange(count...)
        tracks[count - 1].endFrame = nil
        self.decoder = decoder
        self.framesQueued = framesQueued
        self.nextIndex = nextIndex
        decodingEnded = false
    }

    func appendEvent(_ event: Event) { pendingEvents.append(event) }

    /// A damaged frame the decoder skipped: one line naming the file; the track plays on.
    func reportDamage(of decoder: any Decoder) {
        for detail in decoder.takeDamage() {
            pendingEvents.append(.failed(DecoderError(.library, path: decoder.path, detail: detail)))
        }
    }

    var isDecodingEnded: Bool { decodingEnded }
    /// The stream being decoded, when the current entry is a station.
    public var liveStream: (any LiveStream)? { decoder as? any LiveStream }
    var currentDecoder: (any Decoder)? { decoder }
    func advanceToNextTrack() { finishTrack() }

    private func finishTrack() {
        guard var track = tracks.popLast() else { return }
        track.endFrame = framesQueued
        let decoded = framesQueued - track.startFrame
        // Tolerance: before a file is decoded, libmpg123's length from the LAME
        // header can exceed the gapless-trimmed decode by a few MPEG frames.
        if let expected = track.expectedFrames, track.expectedIsExact, decoded + max(4608, expected / 50) < expected {
            pendingEvents.append(.truncated(path: track.path, decodedFrames: decoded, expectedFrames: expected))
        }
        tracks.append(track)
        openNext()
    }
}

extension TrackFeeder {
    /// Adds files to the end of the queue. When everything before was decoded
    /// already and `continueDecoding`, decoding goes on with them (the last
    /// track is still sounding); otherwise they wait for a jump or a resume.
    public func append(_ newPaths: [String], continueDecoding: Bool) {
        paths += newPaths
        if continueDecoding && decodingEnded && decoder == nil && nextIndex < paths.count {
            decodingEnded = false
            openNext()
        } else if decoder != nil {
            warmNext()
        }
    }

    /// The file after the one decoding: its decoder's library loaded on a
    /// thread of its own while this one plays (`Decoders.warm`), not by the
    /// open at the join.
    func warmNext() {
        guard nextIndex < paths.count, paths[nextIndex] != warmedPath else { return }
        warmedPath = paths[nextIndex]
        Decoders.warm(path: paths[nextIndex], target: format)
    }

    /// Replaces the queue after entry `index` (kept, with everything before it)
    /// with `newPaths`. Decoded frames of the old entries must be flushed by
    /// a jump; this only changes the list.
    public func replaceQueue(after index: Int, with newPaths: [String]) {
        paths = Array(paths.prefix(max(0, index + 1))) + newPaths
        nextIndex = min(nextIndex, paths.count)
    }

    /// The queue becomes `newPaths`, made of the old entries: `place` gives
    /// an old entry's new position, nil for one gone. Each track decoded so
    /// far follows its entry; one whose entry went takes the place of the
    /// entry that now follows it (its frames are history, or the caller
    /// jumps away from them). Decoding goes on after the entry it is in, in
    /// the new order; frames decoded ahead of the heard entry are the
    /// caller's to forget when what follows it changed. With nothing left,
    /// nothing is decoded and no track remains. `continueDecoding`: as in
    /// `append`, when everything was decoded and entries now follow, decoding goes on.
    public func rearrange(to newPaths: [String], place: (Int) -> Int?, continueDecoding: Bool) {
        var following = [Int](repeating: newPaths.count, count: paths.count + 1)
        for old in paths.indices.reversed() { following[old] = place(old) ?? following[old + 1] }
        paths = newPaths
        guard !newPaths.isEmpty else {
            dropTracks()
            return
        }
        for track in tracks.indices {
            let old = tracks[track].index
            tracks[track].index = min(newPaths.count - 1, old >= 0 && old < following.count ? following[old] : newPaths.count)
        }
        nextIndex = tracks.last.map { $0.index + 1 } ?? min(nextIndex, newPaths.count)
        nextIndex = min(nextIndex, newPaths.count)
        if continueDecoding && decodingEnded && decoder == nil && nextIndex < paths.count {
            decodingEnded = false
            openNext()
        }
    }

    /// Forgets every track and stops decoding: the listener is in no entry
    /// until a jump (the entry that played went, and none followed it).
    public func dropTracks() {
        tracks.removeAll()
        decoder = nil
        decodingEnded = true
        nextIndex = paths.count
    }

    /// Prepares a jump to queue entry `queueIndex`, `offset` frames into it (or
    /// the first decodable entry after it). The track the listener was in when
    /// the media stopped, at stream frame `stop`, ends there; the tracks
    /// decoded after it are forgotten. `stop` nil: nothing was heard yet, and
    /// the jumped-to track becomes the first. Returns the stream frame to
    /// resume from (for `seek(toStreamFrame:)`), or nil when no entry from
    /// `queueIndex` on decodes.
    public func prepareJump(toQueueIndex queueIndex: Int, offset: Int, stoppedAt stop: Int?) -> Int? {
        var index = max(0, queueIndex)
        while index < paths.count {
            do {
                let opened = try Decoders.open(path: paths[index], target: format)
                if format == nil { format = opened.format }
                let expected = opened.lengthInFrames
                var start = 0
                if let stop {
                    let heard = tracks.lastIndex(where: { $0.startFrame <= stop })
                    tracks.removeSubrange((heard.map { $0 + 1 } ?? 0)...)
                    if let last = tracks.indices.last {
                        tracks[last].endFrame = max(tracks[last].startFrame, stop)
                    }
                    // Fresh stream frames, after everything queued so far, keep the
                    // mapping from stream frames to tracks one-to-one.
                    start = max(framesQueued, stop) + 1
                } else {
                    tracks.removeAll()
                }
                var clamped = max(0, offset)
                // Not by an estimate, which can be shorter than the file.
                if let expected, opened.lengthIsExact { clamped = min(clamped, max(0, expected - 1)) }
                tracks.append(Track(index: index, path: paths[index], startFrame: start, endFrame: nil,
                                    expectedFrames: expected, expectedIsExact: opened.lengthIsExact))
                // Kept for the seek that follows (it reuses the decoder of the
                // last track), so a jump opens its file once.
                decoder = opened
                decodingGain = didOpen(opened, path: paths[index])
                framesQueued = start
                nextIndex = index + 1
                decodingEnded = false
                return start + clamped
            } catch {
                pendingEvents.append(.failed(error))
                index += 1
            }
        }
        return nil
    }

    /// The track that holds stream frame `frame`.
    public func track(containing frame: Int) -> Track? {
        tracks.last { $0.startFrame <= frame }
    }

    /// Moves decoding to `frame` (a stream frame): reopens the file that holds
    /// it (or keeps it open, when decoding is in it: its frame index makes the
    /// seek cheap), seeks there sample-accurately, and forgets the files after
    /// it so they are decoded again in order. The speed stage starts afresh
    /// there. Returns false when no file holds it.
    public func seek(toStreamFrame frame: Int) -> Bool {
        guard let format else { return false }
        guard let index = tracks.lastIndex(where: { $0.startFrame <= frame }) else { return false }
        let track = tracks[index]
        let reused = index == tracks.count - 1 && decoder?.path == track.path
        do {
            let opened = if reused, let decoder { decoder } else { try Decoders.open(path: track.path, target: format) }
            // Trimming: decoded from a little earlier, so the detector stands at `frame` as it would have.
            let start = trimPreRollStart(forOffset: frame - track.startFrame)
            try opened.seek(toFrame: start)
            if !reused { decodingGain = didOpen(opened, path: track.path) }
            replaceDecoder(opened, keepingTracks: index + 1, framesQueued: track.startFrame + start, nextIndex: track.index + 1)
            restartSpeedStage(at: frame)
            return true
        } catch {
            // A decoder left where the failed seek put it would play from the
            // wrong place under the positions of the right one: drop it, and
            // nothing more is decoded from this track.
            if reused { decoder = nil }
            appendEvent(.failed(error))
            return false
        }
    }
}
