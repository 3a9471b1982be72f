extension PlaybackEngine {
    /// Job control: stops the writer and releases the device's queue, the
    /// media frozen at the last frame heard. `resumeOutput()` undoes it.
    /// Nothing happens on the frame clock, which has no device to release.
    public func suspendOutput() {
        guard let sink, sink.suspend() else { return }
        pendingPauseStep = nil
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

    /// Opens the output again after the device was lost, the media frozen where
    /// the listener stopped hearing it. Throws when it is still unavailable.
    public func reopenOutput() throws(StartError) {
        guard let ring, let voiceRing, isOutputLost else { return }
        let stop = stopPosition ?? heardPosition
        let reopened: any AudioOutput
        // A fresh control block: the lost writer's requests and reports stay with it.
        let link = WriterLink(media: ring, voice: voiceRing, events: events, startsWithMediaStopped: true)
        do {
            reopened = try openOutput(format)
            try reopened.attach(link)
        } catch {
            throw .output(error)
        }
        sink = reopened
        self.link = link
        applyVolume(rampFrames: 1)
        streamBase = stop
        writerBase = 0
        // The writer counts from 0 again: so does the output side of the speed map.
        feeder.resetPositionMap()
        started = false
        isOutputLost = false
        stopAnnounced = true
    }
}
