extension PlaybackEngine {
    // A pause aimed at stream frame `aim` (`pauseMedia(fadeFrames:endingAtStreamFrame:)`,
    // a sleep timer's end of chapter through the player's `MediaPause`): the
    // media plays on and its fade (the pause's length) reaches silence on that
    // frame exactly. The writer writes the fade ahead of the device
    // (`WriterContext.aimStop`) rather than from the frame heard when it gets
    // the request, so neither a late turn of the main loop nor the pause
    // path's round trip moves the stop: a sleep timer's end of chapter is the
    // chapter's last frame. A frame heard already, or one the writer has
    // reached or nearly (within `aimMarginFrames`), gets the ordinary pause,
    // from the frame heard.

    /// The writer sees a request within a turn of its loop (a period, up to 93 ms
    /// at 4096 frames); an aim closer than this to its cursor could be passed first.
    var aimMarginFrames: Int { format.rate / 10 }

    /// For `pauseMedia`: publishes the aim (or none) and says
    /// what the pause's fade step and drop are. An aimed pause drops nothing (the
    /// device plays out the fade it was given) and keeps a short fade of its
    /// own for an alarm's voice, which takes over at once as from any pause.
    func aimPause(at aim: Int?, fadeStep: Float, control: UnsafeMutablePointer<WriterControl>)
        -> (fadeStep: Float, dropsQueue: Bool) {
        stopAim = nil
        guard let aim, aim > heardPosition else {
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
        writerBase + feeder.outputOffset(forSourceOffset: frame - streamBase)
    }
}
