/// A pause aimed at a frame, on the writer's side (`WriterControl.mediaStopAim`).
///
/// An ordinary pause fades from the frame heard when the writer gets the
/// request, so it lands as late as the main loop's turn and the writer's
/// pause path (under load 52-153 ms through PulseAudio, for a sleep timer's
/// end of chapter). An aimed pause is written ahead instead: the media plays
/// on at full gain until its fade must begin, then ramps so that it reaches
/// silence on the aimed frame exactly, and the device plays out what it holds
/// (`pauseDropsQueue` is false). Only a request that arrives after the fade's
/// start shortens the fade; the stop frame stays.
extension WriterContext {
    /// Called by `mix` once a slice, after the run request is known: cuts
    /// `limit` so that no slice spans the fade's start, sets `runTarget` for the
    /// slice (and the run ramp, inside the fade), and says whether the pause is
    /// aimed at a frame still ahead (an empty ring is then the decoder behind,
    /// not the place to stop). `voiceWaits`: an exclusive voice wants in,
    /// which the pause's own short fade serves at once, as for any pause.
    @_noLocks
    mutating func aimStop(runRequested: Bool, voiceWaits: Bool, runTarget: inout Float, limit: inout Int) -> Bool {
        guard !runRequested, !voiceWaits, !mediaStopped else { return false }
        let aim = control.pointee.mediaStopAim.load(ordering: .relaxed)
        let left = aim - control.pointee.mediaFramesWritten.load(ordering: .relaxed)
        // Not aimed, or the frame went by before the request came: the pause's own fade from here.
        guard aim >= 0, left > 0 else { return false }
        let fade = control.pointee.mediaStopAimFadeFrames.load(ordering: .relaxed)
        if left > fade {
            runTarget = 1
            limit = min(limit, left - fade)
            return true
        }
        // From the gain now to silence in exactly `left` frames, set again each
        // slice so that a moved aim (a speed change) only changes the slope.
        run.ramp(toward: 0, overFrames: left)
        runTarget = 0
        limit = min(limit, left)
        return true
    }
}
