extension PlaybackEngine {
    /// Aims the next pause (`pauseMedia`, asked for next by whoever pauses: a
    /// sleep timer through the player's session) at stream frame `frame`: the
    /// media plays on and its fade (the pause's length) reaches silence on that
    /// frame exactly. The writer writes the fade ahead of the device
    /// (`WriterContext.aimStop`) rather than from the frame heard when it gets
    /// the request, so neither a late turn of the main loop nor the pause
    /// path's round trip moves the stop: a sleep timer's end of chapter is the
    /// chapter's last frame. Take it back with `cancelPauseAim` once the pause
    /// was asked for or refused, so that no later pause inherits it.
    ///
    /// False (the next pause is an ordinary one) when nothing is open or the
    /// frame has been heard. A frame the writer has already reached, or nearly
    /// (within `aimMarginFrames`), also gets the ordinary pause, from the frame heard.
    @discardableResult
    public func aimNextPause(endingAtStreamFrame frame: Int) -> Bool {
        guard control != nil, frame > heardPosition else { return false }
        nextPauseAim = frame
        return true
    }

    /// Forgets an aim no pause took (`aimNextPause`).
    public func cancelPauseAim() { nextPauseAim = nil }

    /// The writer sees a request within a turn of its loop (a period, up to 93 ms
    /// at 4096 frames); an aim closer than this to its cursor could be passed first.
    var aimMarginFrames: Int { format.rate / 10 }

    /// For `pauseMedia`: publishes the aim (or none) and says
    /// what the pause's fade step and drop are. An aimed pause drops nothing (the
    /// device plays out the fade it was given) and keeps a short fade of its
    /// own for an alarm's voice, which takes over at once as from any pause.
    func takePauseAim(fadeStep: Float, control: UnsafeMutablePointer<WriterControl>)
        -> (fadeStep: Float, dropsQueue: Bool) {
        let aim = nextPauseAim
        nextPauseAim = nil
        stopAim = nil
        guard let aim else {
            disarmStopAim(control)
            return (fadeStep, true)
        }
        let target = writerFrame(forStreamFrame: aim)
        // Acquire: pairs with the writer's release in `commit`.
        let written = control.pointee.mediaFramesWritten.load(ordering: .acquiring)
        guard target - written > aimMarginFrames else {
            disarmStopAim(control)
            return (fadeStep, true)
        }
        stopAim = aim
        control.pointee.mediaStopAimFadeFrames.store(fadeStep > 0 ? Int(1 / fadeStep + 0.5) : 0, ordering: .relaxed)
        control.pointee.mediaStopAim.store(target, ordering: .relaxed)
        return (GainRamp.step(overFrames: format.rate / 50), false)
    }

    /// Each `pump()` while an aimed pause fades: the writer frame of the aim from
    /// the position map as it is now (frames decoded since at another speed move it).
    func refreshStopAim() {
        guard let aim = stopAim, let control else { return }
        guard !control.pointee.mediaRun.load(ordering: .relaxed), !isMediaStopped else {
            stopAim = nil
            return
        }
        control.pointee.mediaStopAim.store(writerFrame(forStreamFrame: aim), ordering: .relaxed)
    }

    /// Before any other `mediaRun` false (the queue's end, a resume's stop): the
    /// last aim, taken back by a resume, must not delay it.
    func disarmStopAim(_ control: UnsafeMutablePointer<WriterControl>) {
        stopAim = nil
        control.pointee.mediaStopAim.store(-1, ordering: .relaxed)
    }

    /// The writer frame (`mediaFramesWritten`'s count) where stream frame `frame` plays.
    func writerFrame(forStreamFrame frame: Int) -> Int {
        writerBase + feeder.positionMap.output(atSource: frame - streamBase)
    }
}
