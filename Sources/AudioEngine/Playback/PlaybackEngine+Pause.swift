extension PlaybackEngine {
    /// Fades the media out over `fadeFrames` and stops it at the exact frame the
    /// fade reached silence. `stopPosition` tells where, once it has happened.
    /// With `aim` (a sleep timer's end of chapter), the fade reaches silence on
    /// that stream frame instead (`+StopAt`), unless it has been heard or nearly.
    ///
    /// The writer has the request when this returns: a key's pause does not
    /// wait for the rest of the loop's turn (the screen's redraw among it). A
    /// voice that is to follow the stop (an alarm's) is started before it,
    /// exclusive: the writer keeps it until the media stops, so it sees the
    /// pause and the voice together and the voice follows on the next frame.
    public func pauseMedia(fadeFrames: Int, endingAtStreamFrame aim: Int? = nil) {
        guard let control else { return }
        pendingResume = nil
        stopAnnounced = false
        let pause = aimPause(at: aim, fadeStep: GainRamp.step(overFrames: fadeFrames), control: control)
        control.pointee.requestPause(fadeStep: pause.fadeStep, dropsQueue: pause.dropsQueue)
    }

    /// Takes back a pause whose fade has not reached silence: the media ramps
    /// back up from the gain the fade reached (at the rate of a `fadeFrames`
    /// fade-in) and plays on from where it is, with nothing skipped or
    /// repeated. A sleep timer's 10 s fade is the case that matters: the
    /// listener who presses play in it is awake. False when the media has
    /// already stopped (resume it with `resumeMedia`) or is not pausing.
    public func cancelPause(fadeFrames: Int) -> Bool {
        guard let control, pendingResume == nil else { return false }
        guard !control.pointee.mediaRun.load(ordering: .relaxed), !isMediaStopped, !queueEndRequested else { return false }
        // If the writer reaches silence before it sees this, it starts again from
        // the frame it stopped at; with `mediaRun` set, no stop is announced.
        control.pointee.mediaFadeStepBits.store(GainRamp.step(overFrames: fadeFrames).bitPattern, ordering: .relaxed)
        control.pointee.mediaRun.store(true, ordering: .releasing)
        control.pointee.wake()
        return true
    }

    /// Continues the media from stream frame `frame` with a fade-in: once the
    /// media has stopped, the writer empties the media ring, the decoder seeks
    /// to `frame` and refills, and the media ramps in. Carried out by `pump()`.
    public func resumeMedia(from frame: Int, fadeFrames: Int) {
        guard control != nil else { return }
        flushEpoch += 1
        pendingResume = (.frame(frame), GainRamp.step(overFrames: fadeFrames), flushEpoch)
    }

    /// Fades the media out and plays on from the frame heard, decoded
    /// again: a station's time-shift move (`LiveStream.moveResumePoint`,
    /// `moveToLive`), which its decoder carries out at that seek. Paused, it
    /// waits for the resume as any pause does.
    public func restartMedia(fadeFrames: Int) {
        guard control != nil, !isMediaStopped || pendingResume != nil else { return }
        if !isMediaStopped { pauseMedia(fadeFrames: fadeFrames) }
        flushEpoch += 1
        queueEndRequested = false
        pendingResume = (.stopFrame, GainRamp.step(overFrames: fadeFrames), flushEpoch)
    }

    func carryOutPendingResume() {
        guard let request = pendingResume, let control, let ring, let sink else { return }
        guard control.pointee.mediaStopped.load(ordering: .acquiring) else {
            // Still fading out (or never paused): make sure it is heading for a stop.
            if control.pointee.mediaRun.load(ordering: .relaxed) {
                disarmStopAim(control)
                control.pointee.mediaRun.store(false, ordering: .releasing)
            }
            return
        }
        if control.pointee.mediaFlushRequest.load(ordering: .relaxed) < request.flushEpoch {
            // Release: pairs with the acquire load in `serviceFlushes`.
            control.pointee.mediaFlushRequest.store(request.flushEpoch, ordering: .releasing)
            control.pointee.wake()
        }
        if sink.clock == .frameClock {
            // The frame-clock output's consumer is this thread: let it serve the flush now.
            _ = sink.render(maxFrames: 0)
            sink.serviceRequests()
        }
        // Acquire: pairs with the writer's release store after it emptied the ring.
        guard control.pointee.mediaFlushAck.load(ordering: .acquiring) >= request.flushEpoch else { return }
        // The silence a voice asked to follow it (`stopVoice(holdFrames:)`) is
        // written first, and the resume's drop leaves it to be heard whole.
        let holding = resumeHeldUntilDeviceFrame != nil
        if let held = resumeHeldUntilDeviceFrame {
            guard control.pointee.deviceFramesWritten.load(ordering: .acquiring) >= held else { return }
            resumeHeldUntilDeviceFrame = nil
        }
        let frame: Int
        switch request.target {
        case .frame(let target):
            frame = target
        case .stopFrame:
            frame = stopPosition ?? heardPosition
        case .queue(let index, let offset):
            let stop = stopPosition ?? heardPosition
            guard let target = feeder.prepareJump(toQueueIndex: index, offset: offset, stoppedAt: stop) else {
                // Nothing playable from there: the media stays stopped, at the end of the queue.
                pendingResume = nil
                queueEndRequested = true
                stopAnnounced = false
                return
            }
            frame = target
        }
        // What the trimmer saved up to the stop was heard; the seek starts its map afresh.
        let stoppedAt = control.pointee.mediaStoppedAt.load(ordering: .acquiring) - writerBase
        trimSavedBeforeSeek += feeder.trimmedFrames(beforeOutputOffset: stoppedAt)
        _ = feeder.seek(toStreamFrame: frame)
        feeder.fill(ring.producer)
        writerBase = control.pointee.mediaFramesWritten.load(ordering: .acquiring)
        streamBase = frame
        // Heard positions before the seek must not map onto the new base, nor move on
        // with the clock until the writer has measured one. The heard pair is the
        // writer's: it restarts it there before it starts the media again (`mix`).
        control.pointee.heardResetFrame.store(writerBase, ordering: .relaxed)
        // Release: pairs with the acquire load in `WriterContext.serviceHeardReset`.
        control.pointee.heardResetRequest.add(1, ordering: .releasing)
        if let index = feeder.tracks.lastIndex(where: { $0.startFrame <= frame }) {
            announcedStart = min(announcedStart, index)
            announcedEnd = min(announcedEnd, index - 1)
        }
        control.pointee.mediaFadeStepBits.store(request.fadeStep.bitPattern, ordering: .relaxed)
        control.pointee.resumeDropsSilence.store(!holding, ordering: .relaxed)
        // Release: publishes the ring's new frames, the fade step, the drop and the heard
        // reset to the writer's acquire of `mediaRun` (in `mix`, or the real-time loop's latch).
        control.pointee.mediaRun.store(true, ordering: .releasing)
        control.pointee.wake()
        pendingResume = nil
        stopAnnounced = false
    }
}
