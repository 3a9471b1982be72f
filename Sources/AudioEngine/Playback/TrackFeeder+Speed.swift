import AudioDecoding

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
    /// frame `output` (counted from the last seek).
    public func sourceOffset(forOutputOffset output: Int) -> Int {
        positionMap.source(atOutput: output)
    }

    /// The output frames before `output` were heard: their part of the map can go.
    public func forgetPositions(before output: Int) {
        if positionMap.points.count > 16 { positionMap.forget(before: output) }
    }

    /// The output side starts again from 0 (a reopened device), the media
    /// frozen at the map's origin until the next seek.
    public func resetPositionMap() {
        positionMap = SpeedMap(speed: speed)
        outputQueued = 0
    }

    /// After a seek: nothing of the old position stays in the stretcher, and
    /// output and source frames count from here.
    func restartSpeedStage() {
        stretcher = nil
        stretcherRetiring = false
        stretcherFlushed = false
        outputQueued = 0
        sourceOrigin = framesQueued
        positionMap = SpeedMap(speed: speed)
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

    private func fallBackToNormalSpeed(_ error: SpeedError) {
        appendEvent(.failed(DecoderError(.library, path: tracks.last?.path ?? "", detail: "\(error) (playing at 1.0x)")))
        stretcher = nil
        positionMap.change(to: .normal, atOutput: outputQueued)
        speed = .normal
    }

    /// One step of the stretched path: hands out ready output, or decodes a
    /// chunk into the stretcher. Returns the frames committed to the ring (0
    /// when it decoded instead), or nil when it can do nothing now.
    func fillStretched(_ producer: SPSCRing.Producer, maxFrames: Int) -> Int? {
        guard let stretcher else { return nil }
        let region = producer.writableRegion(maxSlots: maxFrames)
        guard region.count > 0 else { return nil }
        let ready = stretcher.read(into: region)
        if ready > 0 {
            producer.commit(ready)
            outputQueued += ready
            return ready
        }
        if stretcherRetiring || stretcherFlushed {
            // Drained: every source frame written came out, so the map is exact here.
            positionMap.anchor(output: outputQueued, source: framesQueued - sourceOrigin)
            self.stretcher = nil
            stretcherRetiring = false
            stretcherFlushed = false
            return 0
        }
        guard let decoder = currentDecoder, let input = stretchInput else {
            guard isDecodingEnded else { return nil }
            do { try stretcher.flush() } catch { fallBackToNormalSpeed(error) }
            stretcherFlushed = true
            return 0
        }
        do {
            defer { reportDamage(of: decoder) }
            switch try decoder.read(into: input) {
            case .frames(let frames) where frames > 0:
                do { try stretcher.write(input.baseAddress!, frames: frames) } catch {
                    fallBackToNormalSpeed(error)
                    return 0
                }
                framesQueued += frames
            case .frames, .end:
                advanceToNextTrack()
            case .notYet:
                // A stream with nothing arrived yet: the stretcher waits with it.
                return nil
            }
        } catch {
            appendEvent(.failed(error))
            advanceToNextTrack()
        }
        return 0
    }
}
