extension PlaybackEngine {
    /// Moves playback to queue entry `index`, `offsetFrames` into it (or the
    /// first playable entry after it): the media fades out, decoding restarts
    /// there, and the media fades in. While the media is stopped (paused), it
    /// resumes there. Track events follow as the listener reaches them.
    public func jump(toQueueIndex index: Int, offsetFrames: Int, fadeFrames: Int) {
        guard control != nil else { return }
        if !isMediaStopped { pauseMedia(fadeFrames: fadeFrames) }
        flushEpoch += 1
        queueEndRequested = false
        pendingResume = (.queue(index: index, offset: offsetFrames), GainRamp.step(overFrames: fadeFrames), flushEpoch)
    }

    /// Before the first `pump()`: start at queue entry `index`, `offsetFrames`
    /// into it, instead of the beginning. False when nothing from there decodes.
    @discardableResult
    public func start(atQueueIndex index: Int, offsetFrames: Int) -> Bool {
        guard !started, deviceFramesWritten == 0, let ring, ring.count == 0 else { return false }
        guard let frame = feeder.prepareJump(toQueueIndex: index, offset: offsetFrames, stoppedAt: nil),
              feeder.seek(toStreamFrame: frame) else { return false }
        streamBase = frame
        writerBase = 0
        return true
    }

    /// The queue after the heard entry changed (the user cleared it) while
    /// the feeder had already begun the next entry for the gapless join: its
    /// frames are in the media ring and would play. When that is so and the
    /// media plays, it fades out at the heard frame and goes on from the exact
    /// frame where it stopped, decoded again from the queue as it is now: a
    /// dip of two short fades, nothing skipped or repeated. Paused, or with a
    /// resume or jump not yet carried out, the resume decodes afresh anyway.
    /// A resume carried out but not yet started by the writer (`mediaRun` set,
    /// the media still stopped: until the writer's next slice) has filled the
    /// ring already, so it counts as playing: asked to stop again, the writer
    /// stays where it was and the resume starts there, from the queue as it is
    /// now. True when the media had to be re-decoded.
    @discardableResult
    public func forgetDecodedAhead(fadeFrames: Int) -> Bool {
        guard let control, pendingResume == nil, !queueEndRequested, !isOutputLost,
              control.pointee.mediaRun.load(ordering: .relaxed) else { return false }
        guard let heard = feeder.tracks.lastIndex(where: { $0.startFrame <= heardPosition }),
              heard + 1 < feeder.tracks.count else { return false }
        pauseMedia(fadeFrames: fadeFrames)
        flushEpoch += 1
        pendingResume = (.stopFrame, GainRamp.step(overFrames: fadeFrames), flushEpoch)
        return true
    }

    /// The queue becomes `paths`, made of the old entries (`place`: an old
    /// entry's new position, nil for one gone); see `TrackFeeder.rearrange`.
    public func rearrangeQueue(_ paths: [String], place: (Int) -> Int?) {
        feeder.rearrange(to: paths, place: place, continueDecoding: !queueEndRequested)
        keepAnnouncementsInTracks()
    }

    /// The listener is in no entry until the next jump: the tracks are forgotten (`TrackFeeder.dropTracks`).
    public func forgetQueuePosition() {
        feeder.dropTracks()
        keepAnnouncementsInTracks()
    }

    /// The tracks announced as started and ended are places in `feeder.tracks`, which may have fewer now.
    private func keepAnnouncementsInTracks() {
        announcedStart = min(announcedStart, feeder.tracks.count - 1)
        announcedEnd = min(announcedEnd, announcedStart)
    }

    /// Adds files to the end of the queue.
    public func enqueue(_ paths: [String]) {
        // Once the media stopped at the end, the new files wait for a jump or a
        // resume; before that they follow the last track gaplessly.
        feeder.append(paths, continueDecoding: !queueEndRequested)
    }

    /// The queue entry the listener is in, and how far into it (frames).
    /// A jump asked for while playing and not yet carried out: the media
    /// fades out first, and until the jump lands the heard frame is the old
    /// place, though the listener has asked to be at this one.
    public var pendingJump: (index: Int, offset: Int)? {
        guard let pendingResume, case .queue(let index, let offset) = pendingResume.target else { return nil }
        return (index, offset)
    }

    public var heardTrack: (track: TrackFeeder.Track, offset: Int)? {
        let heard = stopPosition ?? heardPosition
        guard let track = feeder.track(containing: heard) else { return nil }
        return (track, heard - track.startFrame)
    }



    /// With `keepsOutputAtQueueEnd`: once the last decoded frame has gone to the
    /// output, the media stops there (no fade: the track ended by itself), and
    /// `mediaStopped` reports the end like a pause.
    func requestStopAtQueueEnd(_ ring: SPSCRing) {
        guard keepsOutputAtQueueEnd, !queueEndRequested, feeder.isExhausted, pendingResume == nil, let control,
              // Acquire: pairs with the writer's release store of its cursor in `commit`.
              ring.writtenIndex == control.pointee.mediaCursor.load(ordering: .acquiring),
              control.pointee.mediaRun.load(ordering: .relaxed) else { return }
        queueEndRequested = true
        stopAnnounced = false
        control.pointee.mediaFadeStepBits.store(Float(1).bitPattern, ordering: .relaxed)
        // Not a pause: what the device holds is the end of the last track.
        control.pointee.pauseDropsQueue.store(false, ordering: .relaxed)
        disarmStopAim(control)
        // Release: publishes the step and the no-drop above to the writer's acquire of `mediaRun`.
        control.pointee.mediaRun.store(false, ordering: .releasing)
        control.pointee.wake()
    }

    /// True once the media stopped because the queue ran out (`keepsOutputAtQueueEnd`).
    public var isAtQueueEnd: Bool { queueEndRequested && isMediaStopped }
}
