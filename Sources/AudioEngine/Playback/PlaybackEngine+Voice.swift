extension PlaybackEngine {
    /// Ramps the media gain to `gain` over `rampFrames` (ducking), or back to 1.
    public func setDuck(gain: Double, rampFrames: Int) {
        guard let control else { return }
        let from = Float(bitPattern: control.pointee.duckTargetBits.load(ordering: .relaxed))
        let step = GainRamp.step(from: from, to: Float(gain), overFrames: rampFrames)
        control.pointee.duckStepBits.store(step.bitPattern, ordering: .relaxed)
        control.pointee.duckTargetBits.store(Float(gain).bitPattern, ordering: .relaxed)
    }

    /// The user's volume for the media, a linear gain (0 silent, 1 as decoded;
    /// more than 1 amplifies and may clip). It ramps over 20 ms, so a change
    /// never clicks; it multiplies with ducking and the pause fade.
    public func setVolume(_ gain: Double) {
        volume = max(0, gain)
        applyVolume(rampFrames: max(1, format.rate / 50))
    }

    /// Hands the volume to the writer; `rampFrames` 1 sets it from the next frame
    /// (before anything played, or on a new device).
    func applyVolume(rampFrames: Int) {
        guard let control else { return }
        let target = Float(volume)
        let from = Float(bitPattern: control.pointee.volumeTargetBits.load(ordering: .relaxed))
        // One frame means from the next frame, whatever the ramp in progress has reached.
        let step = rampFrames <= 1 ? Float(1e9) : GainRamp.step(from: from, to: target, overFrames: rampFrames)
        control.pointee.volumeStepBits.store(step.bitPattern, ordering: .relaxed)
        control.pointee.volumeTargetBits.store(target.bitPattern, ordering: .releasing)
    }

    /// Starts the interrupter voice. `exclusive`: it sounds only once the media
    /// has stopped (alarms); otherwise it mixes over the media (chimes). It
    /// rises from silence to `gain` over `fadeFrames` once it sounds (an
    /// alarm's `--ramp`: the writer's voice ramp, stepped per frame).
    /// `leadInFrames`: silence first, once the media has stopped (an alarm for
    /// some Snapcast rooms: the others go silent inside it, `RoomAlarm`).
    public func startVoice(_ source: VoiceSource, exclusive: Bool, gain: Double = 1, fadeFrames: Int = 0,
                           leadInFrames: Int = 0) {
        guard let control, let voiceRing else { return }
        let source = leadInFrames > 0 ? LeadInVoice(silenceFrames: leadInFrames, then: source) : source
        voice = source
        // Only the consumer empties a ring, and only while the voice is stopped:
        // a new voice right after another waits for that flush in `pump()`.
        voiceHasMore = source.fill(voiceRing.producer, format: format, maxFrames: voiceRing.capacity)
        control.pointee.voiceExclusive.store(exclusive, ordering: .relaxed)
        control.pointee.voiceGainBits.store(Float(gain).bitPattern, ordering: .relaxed)
        control.pointee.voiceStepBits.store(GainRamp.step(from: 0, to: Float(gain), overFrames: fadeFrames).bitPattern,
                                            ordering: .relaxed)
        control.pointee.voiceRun.store(true, ordering: .releasing)
        control.pointee.wake()
    }

    /// An alarm sounds (true) or no longer does: the output's stream carries
    /// the alarm's media role meanwhile (`AudioOutput.setAlarmRole`).
    public func setAlarmRole(_ ringing: Bool) { sink?.setAlarmRole(ringing) }

    /// Fades the voice out; what is left in its ring is dropped once it is silent.
    /// `holdFrames`: a resume of the media waits until the output has written
    /// that much after the fade, so the stream carries that silence between
    /// the voice's last sound and the media (an alarm for some Snapcast rooms).
    public func stopVoice(fadeFrames: Int, holdFrames: Int = 0) {
        guard let control else { return }
        if holdFrames > 0 {
            resumeHeldUntilDeviceFrame = control.pointee.deviceFramesWritten.load(ordering: .acquiring) + fadeFrames + holdFrames
        }
        voice = nil
        voiceHasMore = false
        control.pointee.voiceStepBits.store(GainRamp.step(overFrames: fadeFrames).bitPattern, ordering: .relaxed)
        control.pointee.voiceRun.store(false, ordering: .releasing)
        control.pointee.voiceFlushRequest.add(1, ordering: .releasing)
        control.pointee.wake()
    }

    /// Frames the voice has given that the writer has not taken yet (not heard yet).
    public var voiceFramesQueued: Int { voiceRing?.count ?? 0 }

    public var isVoiceSounding: Bool { !(control?.pointee.voiceStopped.load(ordering: .acquiring) ?? true) }

    func topUpVoice() {
        guard let voice, let voiceRing, voiceHasMore else { return }
        voiceHasMore = voice.fill(voiceRing.producer, format: format, maxFrames: voiceRing.producer.freeSlots())
    }
}
