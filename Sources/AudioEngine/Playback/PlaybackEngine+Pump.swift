#if canImport(Glibc)
import Glibc
#endif

extension PlaybackEngine {
    /// Does the next slice of work and returns what the listener has now heard
    /// happen. Frame-clock outputs render at most `maxFrames` device frames, so
    /// a caller on the frame clock can stop exactly at a timer's deadline. For a
    /// real-time output, call again within `suggestedWaitMilliseconds`.
    public func pump(maxFrames: Int = 65536) throws(StartError) -> [PlaybackEvent] {
        guard let ring, let sink, let control, !isFinished else { return [] }
        var result: [PlaybackEvent] = []
        refreshStopAim()
        carryOutPendingResume()
        if pendingResume == nil {
            // Acquire: pairs with the writer's release store of its cursor in `commit`.
            let writerWaits = ring.writtenIndex == control.pointee.mediaCursor.load(ordering: .acquiring)
            // The writer, starved (a station's first packets, a stall), takes the
            // media now rather than at the device's next request, a period away.
            let added = feeder.fill(ring.producer)
            if added > 0 && writerWaits && started { control.pointee.wake() }
        }
        feeder.forgetPositions(before: control.pointee.readHeard().frames - writerBase)
        collectFeederEvents(into: &result)
        topUpVoice()
        requestStopAtQueueEnd(ring)
        if !started && !isOutputLost {
            do { try sink.start() } catch { throw .output(error) }
            started = true
            realtimeRefused = !sink.isRealtimePriority
        }
        switch sink.clock {
        case .frameClock: pumpFrameClock(sink, ring: ring, maxFrames: maxFrames, into: &result)
        case .realTime: try pumpRealTime(sink, control: control, into: &result)
        }
        return result
    }

    /// The output renders here, on this thread.
    private func pumpFrameClock(_ sink: any AudioOutput, ring: SPSCRing, maxFrames: Int,
                                into result: inout [PlaybackEvent]) {
        // A queue that keeps its output renders on through the end and through silence.
        if pendingResume != nil || isMediaStopped || ring.count > 0 || keepsOutputAtQueueEnd {
            _ = sink.render(maxFrames: maxFrames)
        }
        collectStop(into: &result)
        collectTrackEvents(heard: heardPosition, into: &result)
        if let error = sink.failure {
            // Nothing more can be kept: say so and stop, rather than decode into the void.
            result.append(.outputFailed(message: error.description))
            sink.stop()
            finish(into: &result)
            return
        }
        if feeder.isExhausted && ring.count == 0 && !isMediaStopped && pendingResume == nil
            && !keepsOutputAtQueueEnd {
            sink.stop()
            finish(into: &result)
        }
    }

    /// The output's thread plays; this reads what it reported.
    private func pumpRealTime(_ sink: any AudioOutput, control: UnsafeMutablePointer<WriterControl>,
                              into result: inout [PlaybackEvent]) throws(StartError) {
        if isOutputLost { return }
        // Release: pairs with the writer's acquire load before it drains.
        control.pointee.endOfStream.store(feeder.isExhausted && pendingResume == nil && !keepsOutputAtQueueEnd,
                                          ordering: .releasing)
        let lost = drainEngineEvents(from: sink, into: &result)
        collectStop(into: &result)
        collectTrackEvents(heard: heardPosition, into: &result)
        if lost {
            // Keep what was heard: the media counts as stopped there, and nothing
            // runs until the user asks for it (the device may come back).
            _ = sink.suspend()
            isOutputLost = true
            pendingResume = nil
            collectStop(into: &result)
            collectTrackEvents(heard: heardPosition, into: &result)
        } else if sink.isFinished && !isOutputLost {
            sink.stop()
            collectTrackEvents(heard: heardPosition, into: &result)
            finish(into: &result)
        }
    }

    /// How long the main loop may sleep before the rings need topping up: a
    /// third of the ring's part ahead of the device, at most 250 ms; 10 ms while a resume is
    /// in progress; -1 (no need to wake: `reportDescriptor` says a lost device) while the
    /// media is stopped and no voice sounds, and while the device is lost. Zero on the frame clock.
    public var suggestedWaitMilliseconds: Int {
        // Lost, or never opened: nothing to top up until the user plays again.
        if isOutputLost { return -1 }
        guard sink?.clock == .realTime, let ring else { return 0 }
        if pendingResume != nil { return 10 }
        if let control, !control.pointee.mediaRun.load(ordering: .relaxed) {
            // A pause in progress: look again soon, so the stop is reported when it happens.
            if !control.pointee.mediaStopped.load(ordering: .relaxed) { return 10 }
            // Stopped, and no voice asked for or still fading: the writer takes
            // nothing from the rings, so nothing needs topping up. A key, a
            // command or a timer wakes the loop, and a lost device the writer's
            // report (`reportDescriptor`); without that descriptor the loop looks
            // now and then. (`voiceRun` is this thread's request; `voiceStopped`,
            // the writer's, lags a voice just started.)
            if !control.pointee.voiceRun.load(ordering: .relaxed) && !isVoiceSounding {
                return reportDescriptor >= 0 ? -1 : Self.idleWaitMilliseconds
            }
        }
        // A third of the part of the ring ahead of the device (the rest holds what the
        // device has not played yet): 147 ms at 44.1 kHz, leaving two thirds of it,
        // 0.3 s, for a late wake-up. Each wake-up costs CPU whatever it decodes.
        return min(250, (ring.capacity - deviceBufferFrames) * 1000 / format.rate / 3)
    }

    /// The wait while stopped with no voice when the writer has no way to
    /// report: a lost device is still said within it.
    public static let idleWaitMilliseconds = 1000

    /// What the writer counts on when it posts what the loop must hear of at
    /// once (a lost device): the loop polls it and calls `takeReports()` when
    /// it is readable, then `pump()`. -1 with no real-time output.
    public var reportDescriptor: Int32 { sink?.clock == .realTime ? link?.reportDescriptor ?? -1 : -1 }

    /// Empties the report descriptor's count (what was reported is drained by the next `pump()`).
    public func takeReports() {
        let descriptor = reportDescriptor
        guard descriptor >= 0 else { return }
        var count: UInt64 = 0
        _ = read(descriptor, &count, 8)
    }
}
