import AudioDecoding
import SpokenAudio

/// Spoken audio between the decoder and the speed stage: pauses shortened
/// (`SilenceTrimmer`), then voices levelled (`VoiceLeveller`), then the
/// speed changed (libsonic): trim, level, stretch. With both off neither
/// stage exists and the frames are the decoder's, bit for bit.
///
/// Positions: the trimmer numbers what it hands on ("trimmed frames") and
/// `trimMap` says which file frame each is; the leveller hands frames on
/// one for one; the speed map then maps output frames to trimmed frames.
/// A place is the file's own sample whatever was cut.
extension TrackFeeder {
    /// Shortens pauses from the next frames decoded (what the ring holds plays
    /// as it was). A strength change starts a new detector where decoding is.
    public func setTrimStrength(_ strength: TrimStrength) {
        guard strength != trimStrength else { return }
        trimStrength = strength
        retireTrimmer()
    }

    /// Levels voices from the next frames decoded; a new target applies to
    /// the gain from the next block on, and off lets what the leveller holds play out.
    public func setVoiceBoost(_ boost: VoiceBoost) {
        guard boost != voiceBoost else { return }
        voiceBoost = boost
        if let target = boost.target, let leveller, !levellerRetiring {
            leveller.setTarget(target)
        } else if !boost.isOn, leveller != nil, !levellerRetiring {
            leveller?.flush()
            levellerRetiring = true
        }
    }

    /// True while the trimmer sits in the pipeline.
    public var isTrimming: Bool { trimmer != nil }
    /// True while the leveller sits in the pipeline.
    public var isLevelling: Bool { leveller != nil }

    private func retireTrimmer() {
        guard let trimmer, !trimmerRetiring else { return }
        trimmer.endOfTrack(map: &trimMap)
        trimmerRetiring = true
    }

    /// Before each step of `fill`: a stage turned on joins where decoding
    /// is; one retired and drained goes; a leveller flushed at the queue's
    /// end starts again when decoding does (files appended).
    func prepareSpokenStages() {
        guard let format else { return }
        if trimmerRetiring, (trimmer?.availableFrames ?? 0) == 0 {
            trimmer = nil
            trimmerRetiring = false
        }
        if levellerRetiring, (leveller?.heldFrames ?? 0) == 0 {
            leveller = nil
            levellerRetiring = false
        }
        if trimmer == nil, !trimmerRetiring, trimStrength.isOn, currentDecoder != nil {
            let made = makeTrimmer(format)
            made.reset(atStreamFrame: framesQueued, skippingBefore: framesQueued, origin: sourceOrigin)
            trimmer = made
        }
        if leveller == nil, !levellerRetiring, let target = voiceBoost.target, currentDecoder != nil {
            leveller = makeLeveller(format, target: target)
        } else if let leveller, leveller.isEnded, !levellerRetiring, leveller.heldFrames == 0, currentDecoder != nil {
            leveller.reset()
        }
    }

    private func makeTrimmer(_ format: AudioFormat) -> SilenceTrimmer {
        ensureStageBuffers(format)
        return SilenceTrimmer(rate: format.rate, channels: format.channels, strength: trimStrength,
                              maxInputFrames: Self.stretchChunkFrames)
    }

    private func makeLeveller(_ format: AudioFormat, target: Int) -> VoiceLeveller {
        ensureStageBuffers(format)
        // It takes at once what the trimmer hands out at most: a chunk, plus the held pause (under 0.4 s).
        return VoiceLeveller(rate: format.rate, channels: format.channels, target: target,
                             maxInputFrames: Self.stretchChunkFrames + format.rate / 2)
    }

    private func ensureStageBuffers(_ format: AudioFormat) {
        if stretchInput == nil {
            stretchInput = .allocate(byteCount: Self.stretchChunkFrames * format.bytesPerFrame, alignment: 16)
        }
        if stageBuffer == nil {
            stageBuffer = .allocate(byteCount: (Self.stretchChunkFrames + format.rate) * format.bytesPerFrame, alignment: 16)
        }
    }

    /// Where a seek to `offset` frames into its track decodes from: with the
    /// trimmer on, its pre-roll earlier, on the detector's block grid from
    /// the track's first frame (or the first frame itself).
    func trimPreRollStart(forOffset offset: Int) -> Int {
        guard trimStrength.isOn, let format else { return offset }
        if trimmer == nil || trimmerRetiring {
            // A seek forgets everything held: the new strength's detector starts at the pre-roll.
            trimmer = makeTrimmer(format)
            trimmerRetiring = false
        }
        guard let trimmer else { return offset }
        let back = max(0, offset - trimmer.preRollFrames)
        return back / trimmer.blockFrames * trimmer.blockFrames
    }

    /// After a seek: the stages start afresh, decoding from stream frame
    /// `start` (the pre-roll's), handing on from `target`.
    func restartSpokenStages(decodingFrom start: Int, target: Int) {
        trimMap = TrimMap()
        stageOut = 0
        if trimmerRetiring {
            trimmer = nil
            trimmerRetiring = false
        }
        if levellerRetiring {
            leveller = nil
            levellerRetiring = false
        }
        trimmer?.reset(atStreamFrame: start, skippingBefore: target, origin: target)
        leveller?.reset()
    }

    /// What the stages before the speed stage hand out now, into `buffer`.
    private func pullStaged(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if let leveller {
            if let trimmer, trimmer.availableFrames > 0, let stage = stageBuffer,
               leveller.freeFrames >= trimmer.availableFrames, !leveller.isEnded {
                let frames = trimmer.read(into: stage)
                leveller.write(stage.baseAddress!.assumingMemoryBound(to: Int16.self), frames: frames)
            }
            return leveller.read(into: buffer)
        }
        return trimmer?.read(into: buffer) ?? 0
    }

    /// One step of the processed path (trimmer, leveller, stretcher, any of
    /// them): hands out ready output, or moves frames one stage on, or
    /// decodes a chunk. Returns the frames committed to the ring (0 when it
    /// did other work), or nil when it can do nothing now.
    func fillProcessed(_ producer: SPSCRing.Producer, maxFrames: Int) -> Int? {
        guard let format else { return nil }
        let region = producer.writableRegion(maxSlots: maxFrames)
        guard region.count > 0 else { return nil }
        if let stretcher {
            let ready = stretcher.read(into: region)
            if ready > 0 {
                producer.commit(ready)
                outputQueued += ready
                return ready
            }
            if stretcherRetiring || stretcherFlushed {
                // Drained: every trimmed frame written came out, so the map is exact here.
                positionMap.anchor(output: outputQueued, source: stageOut)
                self.stretcher = nil
                stretcherRetiring = false
                stretcherFlushed = false
                return 0
            }
            if let input = stretchInput {
                let chunk = UnsafeMutableRawBufferPointer(rebasing: input[0..<min(input.count, Self.stretchChunkFrames * format.bytesPerFrame)])
                let staged = pullStaged(into: chunk)
                if staged > 0 {
                    do { try stretcher.write(chunk.baseAddress!, frames: staged) } catch {
                        fallBackToNormalSpeed(error)
                        return 0
                    }
                    stageOut += staged
                    return 0
                }
            }
        } else {
            let staged = pullStaged(into: region)
            if staged > 0 {
                producer.commit(staged)
                outputQueued += staged
                stageOut += staged
                return staged
            }
        }
        // Nothing staged: a retiring stage drains before anything more is decoded.
        // (Each such step moves frames on or lets `prepareSpokenStages` remove the stage.)
        if trimmerRetiring || levellerRetiring { return 0 }
        if (trimmer?.availableFrames ?? 0) > 0 { return nil }
        guard let decoder = currentDecoder, let input = stretchInput else {
            guard isDecodingEnded else { return nil }
            // The end of the queue: each stage hands out what it holds, in order.
            if let leveller, !leveller.isEnded {
                leveller.flush()
                return 0
            }
            if let stretcher, !stretcherFlushed, (leveller?.heldFrames ?? 0) == 0 {
                do { try stretcher.flush() } catch { fallBackToNormalSpeed(error) }
                stretcherFlushed = true
                return 0
            }
            return nil
        }
        if let leveller, leveller.freeFrames < Self.stretchChunkFrames + format.rate / 2 { return nil }
        do {
            defer { reportDamage(of: decoder) }
            switch try decoder.read(into: input) {
            case .frames(let frames) where frames > 0:
                let samples = UnsafePointer(input.baseAddress!.assumingMemoryBound(to: Int16.self))
                if let trimmer {
                    trimmer.write(samples, frames: frames, map: &trimMap)
                } else {
                    trimMap.append(source: framesQueued - sourceOrigin, frames: frames)
                    if let leveller {
                        leveller.write(samples, frames: frames)
                    } else if let stretcher {
                        do { try stretcher.write(input.baseAddress!, frames: frames) } catch {
                            fallBackToNormalSpeed(error)
                            return 0
                        }
                        stageOut += frames
                    }
                }
                framesQueued += frames
            case .frames, .end:
                trimmer?.endOfTrack(map: &trimMap)
                advanceToNextTrack()
            case .notYet:
                // A stream with nothing arrived yet: the stages wait with it.
                return nil
            }
        } catch {
            appendEvent(.failed(error))
            trimmer?.endOfTrack(map: &trimMap)
            advanceToNextTrack()
        }
        return 0
    }
}
