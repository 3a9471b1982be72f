@testable import AudioEngine
import Foundation
import InterludeCore
import Synchronization
import Testing
import TestSupport

/// The writer's shared state across two real threads. `make test-tsan` runs
/// this suite under ThreadSanitizer with the ring stress tests: a field with a
/// writer on each side, or an ordering that does not pair, is a reported race.
@Suite(.serialized) struct WriterThreadTests {
    /// A request and its wake-up are one call on the control: the pause is
    /// stored and the writer's eventfd counted before `requestPause` returns.
    @Test func aPauseRequestWakesTheWriterThroughTheControl() throws {
        let control = WriterControl.allocate()
        defer { WriterControl.deallocate(control) }
        let descriptor = try SystemCall.eventDescriptor()
        defer { close(descriptor) }
        control.pointee.wakeDescriptor.store(descriptor, ordering: .relaxed)
        control.pointee.requestPause(fadeStep: 0.01, dropsQueue: true)
        var count: UInt64 = 0
        #expect(read(descriptor, &count, 8) == 8)
        #expect(count == 1)
        let runs = control.pointee.mediaRun.load(ordering: .acquiring)
        let drops = control.pointee.pauseDropsQueue.load(ordering: .relaxed)
        #expect(!runs && drops)
    }

    /// A pause is the writer's when `pauseMedia` returns: the real-time writer
    /// fades and stops the media with no `pump()` after the request, so a key's
    /// pause does not wait for the rest of the loop's turn (its redraw among it).
    @Test func aPauseReachesTheWriterWithoutAnotherPump() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 3)
        let scenario = try WriterScenario(mp3: mp3, latencyMilliseconds: 100, native: true)
        let engine = scenario.engine
        try scenario.pump { engine.heardPosition >= engine.format.rate / 2 }
        engine.pauseMedia(fadeFrames: engine.format.rate / 100)
        let deadline = Date().addingTimeInterval(10)
        while !engine.isMediaStopped && Date() < deadline { usleep(1000) }
        #expect(engine.isMediaStopped, "the writer has not stopped the media")
        engine.stop()
    }

    /// The heard pair is one snapshot: a reader never sees the frames of one
    /// measurement with the time of another.
    @Test func theHeardPairIsReadAsOneSnapshotWhileTheWriterPublishes() {
        let control = WriterControl.allocate()
        defer { WriterControl.deallocate(control) }
        let done = UnsafeMutablePointer<Atomic<Bool>>.allocate(capacity: 1)
        done.initialize(to: Atomic<Bool>(false))
        defer { done.deinitialize(count: 1); done.deallocate() }
        let finished = DispatchSemaphore(value: 0)
        let pointer = UnsafeSendable(control)
        let flag = UnsafeSendable(done)
        Thread.detachNewThread {
            var frames = 1
            while !flag.value.pointee.load(ordering: .relaxed) {
                pointer.value.pointee.publishHeard(frames: frames, nanoseconds: frames &* 3 &+ 7)
                frames += 1
            }
            finished.signal()
        }
        var torn = 0
        var last = 0
        var reads = 0
        while reads < 2_000_000 {
            let (frames, nanoseconds) = control.pointee.readHeard()
            if frames != 0 && nanoseconds != frames &* 3 &+ 7 { torn += 1 }
            if frames < last { torn += 1 }
            last = frames
            reads += 1
        }
        done.pointee.store(true, ordering: .relaxed)
        finished.wait()
        #expect(torn == 0)
        #expect(last > 0, "the writer published")
    }

    /// After a seek the engine does not store the writer's heard pair: it asks,
    /// and the writer restarts the pair (unmeasured) in the same `mix` that
    /// starts the media again, so the engine never sees the media running with
    /// a heard position from before the seek.
    @Test func theHeardResetAfterASeekIsCarriedOutByTheWriterAsTheMediaRestarts() {
        let media = SPSCRing(minimumCapacity: 4096, slotBytes: 2)
        let link = WriterLink(media: media, voice: SPSCRing(minimumCapacity: 64, slotBytes: 2),
                              events: SPSCRing(minimumCapacity: 16, slotBytes: EngineEvent.slotBytes),
                              startsWithMediaStopped: true)
        let context = WriterContext.allocate(link: link, channels: 1, scratchFrames: 256, periodFrames: 256)
        defer { WriterContext.free(context) }
        let control = link.control
        control.pointee.publishHeard(frames: 500, nanoseconds: 123)
        let region = media.producer.writableRegion(maxSlots: 1000)
        region.initializeMemory(as: UInt8.self, repeating: 1)
        media.producer.commit(region.count / 2)

        // The engine's resume: the reset request, then the run request.
        control.pointee.heardResetFrame.store(40, ordering: .relaxed)
        control.pointee.heardResetRequest.add(1, ordering: .releasing)
        let before = control.pointee.readHeard()
        #expect(before.frames == 500 && before.nanoseconds == 123, "not the engine's to store")
        control.pointee.mediaRun.store(true, ordering: .releasing)
        let frames = context.pointee.mix(maxFrames: 100)
        #expect(frames == 100)
        let restarted = !control.pointee.mediaStopped.load(ordering: .acquiring)
        let reset = control.pointee.readHeard()
        let acknowledged = control.pointee.heardResetAck.load(ordering: .acquiring)
        #expect(restarted)
        #expect(reset.frames == 40 && reset.nanoseconds == 0)
        #expect(acknowledged == 1)
        // Carried out once: the writer's own measurements follow.
        context.pointee.commit(frames)
        context.pointee.publishHeard(delay: 0, nanoseconds: 9)
        _ = context.pointee.mix(maxFrames: 10)
        let measured = control.pointee.readHeard()
        #expect(measured.frames == 100 && measured.nanoseconds == 9)
    }

    /// The engine over a real writer thread (ALSA through the private PulseAudio
    /// null sink, and the native output to the same server): pause, an exclusive voice, stop it, resume from the stop, a
    /// duck and a volume ramp, to the end of the file.
    @Test(arguments: [false, true])
    func theEngineDrivesARealWriterThroughPauseVoiceAndResume(native: Bool) throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 4)
        let scenario = try WriterScenario(mp3: mp3, latencyMilliseconds: 60, native: native)
        try scenario.run(playSeconds: 0.6, voiceSeconds: 0.4)
        #expect(scenario.stops.count == 1)
        #expect(scenario.finished)
        #expect(!scenario.lost)
        // Between measurements the heard position runs on with the clock; the pause's
        // drop measures it again, so it may step back by up to a period there. At the
        // end the writer drained: every frame of the file was heard.
        let total = try WAVFile.read(Fixtures.decodedByMPG123(mp3)).frameCount
        #expect(scenario.heardSamples.last == total)
        let stop = try #require(scenario.stops.first)
        #expect(stop >= scenario.engine.format.rate * 6 / 10 && stop < total)
    }
}

/// A value the test moves to its other thread itself.
struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// One engine on ALSA's `pulse` device, or with `native` on `PulseOutput`
/// (either way the test's private PulseAudio server), driven through what the writer must handle: a volume ramp, a duck and its
/// release, a pause with an exclusive alarm voice, the voice's stop, a resume
/// from the stop frame, then playing to the end.
final class WriterScenario {
    let engine: PlaybackEngine
    var events: [PlaybackEvent] = []
    var heardSamples: [Int] = []
    private(set) var periodFrames = 0

    init(mp3: String, latencyMilliseconds: Int, native: Bool = false) throws {
        let server = try PulseServer.shared()
        // alsa-lib's pulse plugin, in this process, finds the server through the
        // environment. Only PULSE_SERVER (the server accepts anonymous clients):
        // the runtime path, inherited by a server another test starts, would
        // make that one find this one's pid file and refuse to start.
        if let address = server.environment["PULSE_SERVER"] { setenv("PULSE_SERVER", address, 1) }
        var period = 0
        engine = PlaybackEngine(paths: [mp3]) { format throws(OutputError) in
            if native {
                do throws(PulseAudioError) {
                    let output = try PulseOutput(format: format, latencyMilliseconds: latencyMilliseconds)
                    period = output.periodFrames
                    return output
                } catch {
                    throw .soundServer(error)
                }
            }
            do throws(AlsaError) {
                let output = try AlsaOutput(device: "pulse", format: format, latencyMilliseconds: latencyMilliseconds)
                period = output.pcm.periodFrames
                return output
            } catch {
                throw .device(error)
            }
        }
        try engine.open()
        periodFrames = period
    }

    var stops: [Int] { events.compactMap { if case .mediaStopped(let position) = $0 { position } else { nil } } }
    var finished: Bool { events.contains { if case .finished = $0 { true } else { false } } }
    var lost: Bool { events.contains { if case .deviceLost = $0 { true } else { false } } }

    /// Pumps as the player's loop does (sleeping the suggested wait) until `condition`.
    func pump(until condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while !condition() && !engine.isFinished && !engine.isOutputLost && Date() < deadline {
            events += try engine.pump()
            heardSamples.append(engine.heardPosition)
            let wait = engine.suggestedWaitMilliseconds
            if wait > 0 { usleep(useconds_t(min(wait, 20) * 1000)) }
        }
    }

    func run(playSeconds: Double, voiceSeconds: Double) throws {
        let rate = engine.format.rate
        let frames = { (seconds: Double) in Int(seconds * Double(rate)) }
        try pump { engine.heardPosition >= frames(playSeconds) / 2 }
        engine.setVolume(0.5)
        engine.setDuck(gain: 0.2, rampFrames: frames(0.05))
        try pump { engine.heardPosition >= frames(playSeconds) * 3 / 4 }
        engine.setDuck(gain: 1, rampFrames: frames(0.05))
        engine.setVolume(1)
        try pump { engine.heardPosition >= frames(playSeconds) }
        engine.pauseMedia(fadeFrames: frames(0.03))
        engine.startVoice(ToneVoice(), exclusive: true)
        try pump { engine.isMediaStopped && engine.isVoiceSounding }
        let voiceFrom = engine.deviceFramesWritten
        try pump { engine.deviceFramesWritten >= voiceFrom + frames(voiceSeconds) }
        engine.stopVoice(fadeFrames: frames(0.01))
        try pump { !engine.isVoiceSounding }
        if let stop = engine.stopPosition { engine.resumeMedia(from: stop, fadeFrames: frames(0.03)) }
        try pump { false }
        engine.stop()
    }
}
