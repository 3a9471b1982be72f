extension PlaybackEngine {
    /// Job control: stops the writer and releases the device's queue, the
    /// media frozen at the last frame heard. `resumeOutput()` undoes it.
    /// Nothing happens on the frame clock, which has no device to release.
    public func suspendOutput() {
        guard let sink, sink.suspend() else { return }
        pendingResume = nil
        voice = nil
        voiceHasMore = false
        stopAnnounced = false
    }

    /// After `suspendOutput()`: the device is prepared and the writer runs
    /// again (silent until a resume).
    public func resumeOutput() throws(StartError) {
        guard let sink, !isOutputLost else { return }
        do { try sink.resume() } catch { throw .output(error) }
    }

    /// Opens the output again after the device was lost (or could not be opened
    /// at all), the media frozen where the listener stopped hearing it (or
    /// where playback is to start). Throws when it is still unavailable.
    public func reopenOutput() throws(StartError) {
        guard var ring, let voiceRing, isOutputLost else { return }
        let stop = stopPosition ?? heardPosition
        // What trimming saved up to the stop, read from the old control block before it goes.
        let saved = trimSavedFrames
        let reopened: any AudioOutput
        do {
            reopened = try openOutput(format)
            if sink == nil {
                // The first output of this engine: the ring made while waiting was a
                // placeholder (nothing was ever decoded into it); size it for this one.
                ring = SPSCRing(minimumCapacity: reopened.mediaRingFrames, slotBytes: format.bytesPerFrame)
            }
            // A fresh control block: the lost writer's requests and reports stay with it.
            let link = WriterLink(media: ring, voice: voiceRing, events: events, startsWithMediaStopped: true)
            try reopened.attach(link)
            self.link = link
        } catch {
            throw .output(error)
        }
        sink = reopened
        self.ring = ring
        deviceBufferFrames = reopened.bufferFrames
        unavailableOutput = nil
        applyVolume(rampFrames: 1)
        streamBase = stop
        writerBase = 0
        // The writer counts from 0 again: so does the output side of the speed map.
        trimSavedBeforeSeek = saved
        feeder.resetPositionMap()
        started = false
        isOutputLost = false
        stopAnnounced = true
    }

    /// `open()` found no device and `waitsForOutput`: the engine waits as if
    /// the device had been lost before the first frame, the media stopped at
    /// the start, until `reopenOutput()` opens one. Requests made meanwhile
    /// (a start position, a jump, the volume) go to a control block no writer
    /// ever reads, so the engine's thread reports the stop in its place.
    func waitWithoutOutput(voiceRing: SPSCRing, because error: OutputError) {
        let ring = SPSCRing(minimumCapacity: max(1, format.rate / 3), slotBytes: format.bytesPerFrame)
        let link = WriterLink(media: ring, voice: voiceRing, events: events)
        link.control.pointee.mediaRun.store(false, ordering: .relaxed)
        link.control.pointee.mediaStopped.store(true, ordering: .releasing)
        self.ring = ring
        self.link = link
        unavailableOutput = error
        isOutputLost = true
        // No stop to announce: nothing was playing.
        stopAnnounced = true
    }

    /// True until an output has been opened (the engine waits without one).
    public var hasOpenedOutput: Bool { sink != nil }
}
