import AudioDecoding
import SpokenAudio

/// Speed with pitch kept: between the decoder and the ring, libsonic (through
/// `TimeStretcher`) turns source frames into fewer (faster) or more (slower)
/// output frames. At 1.0x it is not there at all, so a normal-speed stream is
/// the decoder's output bit for bit.
///
/// Positions: the ring and the writer count output frames; `positionMap`
/// turns an output frame since the last seek into a source frame, which is
/// what the engine reports (book time).
extension TrackFeeder {
    /// Frames decoded at a time into the stretcher: small enough that a speed
    /// change or the ring's free space is honoured closely.
    static let stretchChunkFrames = 2048

    /// Changes the speed for every frame decoded from now on; what the ring
    /// already holds plays out at the old speed (at most the ring's length).
    /// Positions keep running without a jump.
    public func setSpeed(_ newSpeed: PlaybackSpeed) throws(SpeedError) {
        guard newSpeed != speed else { return }
        positionMap.change(to: newSpeed, atOutput: outputQueued)
        speed = newSpeed
        if let stretcher {
            stretcher.setSpeed(newSpeed)
            stretcherRetiring = newSpeed.isNormal
            // At 1.0x libsonic copies what it holds straight to its output.
            if newSpeed.isNormal { try stretcher.process() }
        } else if !newSpeed.isNormal, currentDecoder != nil {
            try makeStretcher()
        }
    }

    /// True while libsonic sits between decoder and ring (false at 1.0x once what
    /// it held has played: the decoder's frames then go to the ring untouched).
    public var isStretching: Bool { stretcher != nil }

    /// The source frame (stream frames from the last seek's origin) of output
    /// frame `output` (counted from the last seek): through the speed map to
    /// a trimmed frame, through the trim map to the file's own.
    public func sourceOffset(forOutputOffset output: Int) -> Int {
        trimMap.source(atTrimmed: positionMap.source(atOutput: output))
    }

    /// The first output frame (from the last seek) that plays source frame
    /// `source` (from the last seek's origin), or the first after it when it was cut.
    public func outputOffset(forSourceOffset source: Int) -> Int {
        positionMap.output(atSource: trimMap.trimmed(atSource: source))
    }

    /// Source frames cut by the trimmer before output frame `output` (from the last seek).
    public func trimmedFrames(beforeOutputOffset output: Int) -> Int {
        trimMap.dropped(atTrimmed: positionMap.source(atOutput: max(0, output)))
    }

    /// The output frames before `output` were heard: their part of the maps can go.
    public func forgetPositions(before output: Int) {
        if trimMap.points.count > 16 { trimMap.forget(before: positionMap.source(atOutput: max(0, output))) }
        if positionMap.points.count > 16 { positionMap.forget(before: output) }
    }

    /// The output side starts again from 0 (a reopened device), the media
    /// frozen at the map's origin until the next seek.
    public func resetPositionMap() {
        positionMap = SpeedMap(speed: speed)
        trimMap = TrimMap()
        outputQueued = 0
        stageOut = 0
    }

    /// After a seek to stream frame `target`: nothing of the old position
    /// stays in the stretcher or the spoken-audio stages, and output and
    /// source frames count from here.
    func restartSpeedStage(at target: Int) {
        stretcher = nil
        stretcherRetiring = false
        stretcherFlushed = false
        outputQueued = 0
        sourceOrigin = target
        positionMap = SpeedMap(speed: speed)
        restartSpokenStages(decodingFrom: framesQueued, target: target)
        if !speed.isNormal {
            do { try makeStretcher() } catch { fallBackToNormalSpeed(error) }
        }
    }

    /// A stretcher for decoding that goes on without a seek (the map carries on).
    func restartStretcherInPlace() {
        do { try makeStretcher() } catch { fallBackToNormalSpeed(error) }
    }

    private func makeStretcher() throws(SpeedError) {
        guard let format else { return }
        stretcher = try TimeStretcher(format: format, speed: speed)
        stretcherRetiring = false
        stretcherFlushed = false
        if stretchInput == nil {
            stretchInput = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.stretchChunkFrames * format.bytesPerFrame,
                                                                  alignment: 16)
        }
    }

    func fallBackToNormalSpeed(_ error: SpeedError) {
        appendEvent(.failed(DecoderError(.library, path: tracks.last?.path ?? "", detail: "\(error) (playing at 1.0x)")))
        stretcher = nil
        positionMap.change(to: .normal, atOutput: outputQueued)
        speed = .normal
    }
}
