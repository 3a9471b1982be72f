@testable import AudioEngine
import CAllocationCounter
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The real-time rule that no allocation happens on the writer side, proven by
/// counting: `CAllocationCounter` interposes malloc and friends for the test
/// process and counts calls made on marked threads (or threads of a name).
/// Not built under ThreadSanitizer, whose allocator must see everything.
@Suite(.serialized, .enabled(if: interlude_allocations_available() != 0))
struct AllocationCountingTests {
    /// The writer's mix, commit and heard publication, on this thread (marked),
    /// for 6000 periods of 256 frames: a volume ramp, a duck and its release, a
    /// pause with the rewind the writer loop makes, an exclusive alarm voice, its
    /// stop and flush, a resume with the heard reset, all through the control
    /// block as the engine writes it.
    @Test func theMixAllocatesNothingOverThousandsOfPeriods() {
        let channels = 2
        let period = 256
        let media = SPSCRing(minimumCapacity: 8192, slotBytes: 2 * channels)
        let voice = SPSCRing(minimumCapacity: 8192, slotBytes: 2 * channels)
        let events = SPSCRing(minimumCapacity: 64, slotBytes: EngineEvent.slotBytes)
        let link = WriterLink(media: media, voice: voice, events: events)
        let context = WriterContext.allocate(link: link, channels: channels, scratchFrames: period,
                                             periodFrames: period)
        defer { WriterContext.free(context) }
        let sourceFrames = 8192
        let source = UnsafeMutablePointer<Int16>.allocate(capacity: sourceFrames * channels)
        defer { source.deallocate() }
        for index in 0..<(sourceFrames * channels) { source[index] = Int16(truncatingIfNeeded: index &* 37) }
        let control = link.control
        let fade = GainRamp.step(overFrames: 1323).bitPattern
        let ramp = GainRamp.step(from: 1, to: 0.5, overFrames: 882).bitPattern
        let duck = GainRamp.step(from: 1, to: 0.2, overFrames: 4410).bitPattern

        var progress = MixProgress()
        interlude_allocations_begin_window()
        defer { interlude_allocations_end_window() }
        interlude_allocations_mark_this_thread(1)
        for index in 0..<6000 {
            runPeriod(index, context: context, control: control, media: media.producer, voice: voice.producer,
                      source: source, sourceFrames: sourceFrames, channels: channels, period: period,
                      fade: fade, ramp: ramp, duck: duck, progress: &progress)
        }
        interlude_allocations_mark_this_thread(0)
        let counted = interlude_allocations_counted()

        #expect(counted == 0, "allocations on the mixing thread: \(counted), the first by \(counted > 0 ? stack(0) : "")")
        // The scenario happened: the media stopped, the voice sounded, the media came back.
        #expect(progress.stops == 1 && progress.voiceSounded && progress.resumed, "\(progress)")
        #expect(progress.frames >= 6000 * period / 2)
    }

    /// The ALSA writer thread itself (it names itself `interlude-audio`), through
    /// the private PulseAudio null sink with 15 ms of buffer: a volume ramp, a
    /// duck, a pause with the drop and rewind, an alarm voice, its stop and a
    /// resume, for thousands of periods. Every allocation counted on that thread
    /// must come from alsa-lib or its pulse plugin (which allocate in the
    /// server protocol); none from our code or the Swift runtime.
    @Test func theAlsaWriterThreadAllocatesNothingOfItsOwn() throws {
        try expectNoAllocationsOfOurOwn(native: false, library: "alsa-lib")
    }

    /// The native output's writer thread, the same scenario with 15 ms of server
    /// buffer: every allocation counted on it must come from libpulse (its
    /// packet queue in `pa_stream_write`, timing updates), none from our code.
    @Test func thePulseWriterThreadAllocatesNothingOfItsOwn() throws {
        try expectNoAllocationsOfOurOwn(native: true, library: "libpulse")
    }

    /// The writer scenario on the ALSA or the native output, with the allocations
    /// on the thread named `interlude-audio` counted: each must come from the C
    /// libraries (`isAlsaLib`), none from our code or the Swift runtime.
    private func expectNoAllocationsOfOurOwn(native: Bool, library: String) throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 12)
        interlude_allocations_begin_window()
        defer { interlude_allocations_end_window() }
        interlude_allocations_count_threads_named("interlude-audio")
        defer { interlude_allocations_count_threads_named(nil) }
        interlude_allocations_reset()
        let scenario = try WriterScenario(mp3: mp3, latencyMilliseconds: 15, native: native)
        try scenario.run(playSeconds: 4, voiceSeconds: 1)
        interlude_allocations_count_threads_named(nil)
        let counted = interlude_allocations_counted()
        let periods = scenario.engine.deviceFramesWritten / max(1, scenario.periodFrames)

        let objects = callerObjects()
        let ours = objects.indices.filter { !Self.isAlsaLib(objects[$0]) }
        #expect(Int(counted) <= objects.count, "more allocations than callers recorded: \(counted)")
        let described = ours.prefix(3).map { "\(objects[$0]) via \(stack($0))" }.joined(separator: "; ")
        #expect(ours.isEmpty, "\(ours.count) allocations on the writer thread outside \(library), the first: \(described)")
        #expect(periods >= 2000, "\(periods) periods of \(scenario.periodFrames) frames")
        #expect(scenario.stops.count == 1 && scenario.finished && !scenario.lost)
        print("\(library) writer thread: \(periods) periods of \(scenario.periodFrames) frames, \(counted) allocations, "
              + "by \(Dictionary(grouping: objects) { $0 }.mapValues(\.count)); first stacks: "
              + Set((0..<min(objects.count, 64)).map { stack($0).split(separator: " < ").prefix(3).joined(separator: " < ") })
                .sorted().joined(separator: " | "))
    }

    static func isAlsaLib(_ object: String) -> Bool {
        let name = object.split(separator: "/").last.map(String.init) ?? object
        return name.hasPrefix("libasound") || name.hasPrefix("libpulse")
    }

    /// The functions on the stack of counted allocation `index` (the first 64).
    func stack(_ index: Int) -> String {
        var frames = [UnsafeMutableRawPointer?](repeating: nil, count: 8)
        let depth = Int(interlude_allocations_stack(Int32(index), &frames, 8))
        return frames.prefix(depth).map { pc in
            guard let pc else { return "?" }
            if let symbol = interlude_allocations_symbol_of(pc) { return String(cString: symbol) }
            let object = interlude_allocations_object_of(pc).map { String(cString: $0) } ?? "?"
            let offset = String(interlude_allocations_offset_of(pc), radix: 16)
            return "\(object.split(separator: "/").last ?? "?")+0x\(offset)"
        }.joined(separator: " < ")
    }

    /// The shared objects whose code made the counted allocations, in order.
    func callerObjects() -> [String] {
        var callers = [UnsafeMutableRawPointer?](repeating: nil, count: 4096)
        let count = Int(interlude_allocations_callers(&callers, Int32(callers.count)))
        return callers.prefix(count).map { pc in
            guard let pc, let name = interlude_allocations_object_of(pc) else { return "?" }
            return String(cString: name)
        }
    }
}

struct MixProgress: CustomStringConvertible {
    var frames = 0
    var stops = 0
    var voiceSounded = false
    var resumed = false
    var wasStopped = false
    var description: String { "frames \(frames), stops \(stops), voice \(voiceSounded), resumed \(resumed)" }
}

/// One period of the writer side, and the engine's requests due at it. Plain
/// values and pointers only: nothing here may allocate.
private func runPeriod(_ index: Int, context: UnsafeMutablePointer<WriterContext>,
                       control: UnsafeMutablePointer<WriterControl>, media: SPSCRing.Producer,
                       voice: SPSCRing.Producer, source: UnsafeMutablePointer<Int16>, sourceFrames: Int,
                       channels: Int, period: Int, fade: UInt32, ramp: UInt32, duck: UInt32,
                       progress: inout MixProgress) {
    switch index {
    case 500:
        control.pointee.volumeStepBits.store(ramp, ordering: .relaxed)
        control.pointee.volumeTargetBits.store(Float(0.5).bitPattern, ordering: .releasing)
    case 800:
        control.pointee.duckStepBits.store(duck, ordering: .relaxed)
        control.pointee.duckTargetBits.store(Float(0.2).bitPattern, ordering: .relaxed)
    case 1200:
        control.pointee.duckTargetBits.store(Float(1).bitPattern, ordering: .relaxed)
    case 1500:
        // As the writer loop does after a drop: back to a frame still in the ring.
        let written = control.pointee.mediaFramesWritten.load(ordering: .relaxed)
        _ = context.pointee.rewindMedia(to: written - 300)
        control.pointee.mediaFadeStepBits.store(fade, ordering: .relaxed)
        control.pointee.pauseDropsQueue.store(true, ordering: .relaxed)
        control.pointee.mediaRun.store(false, ordering: .releasing)
        control.pointee.voiceExclusive.store(true, ordering: .relaxed)
        control.pointee.voiceGainBits.store(Float(1).bitPattern, ordering: .relaxed)
        control.pointee.voiceStepBits.store(Float(1).bitPattern, ordering: .relaxed)
        control.pointee.voiceRun.store(true, ordering: .releasing)
    case 2500:
        control.pointee.voiceStepBits.store(fade, ordering: .relaxed)
        control.pointee.voiceRun.store(false, ordering: .releasing)
        control.pointee.voiceFlushRequest.add(1, ordering: .releasing)
    case 2700:
        control.pointee.mediaFlushRequest.add(1, ordering: .releasing)
    case 2710:
        let written = control.pointee.mediaFramesWritten.load(ordering: .acquiring)
        control.pointee.heardResetFrame.store(written, ordering: .relaxed)
        control.pointee.heardResetRequest.add(1, ordering: .releasing)
        control.pointee.mediaFadeStepBits.store(fade, ordering: .relaxed)
        control.pointee.mediaRun.store(true, ordering: .releasing)
    case 4000:
        control.pointee.volumeTargetBits.store(Float(1).bitPattern, ordering: .releasing)
    default:
        break
    }
    // The producers' side: keep both rings topped up from the source frames.
    topUp(media, from: source, sourceFrames: sourceFrames, channels: channels)
    topUp(voice, from: source, sourceFrames: sourceFrames, channels: channels)
    let frames = context.pointee.mix(maxFrames: period)
    context.pointee.commit(frames)
    context.pointee.publishHeard(delay: 512, nanoseconds: WriterControl.monotonicNanoseconds())
    _ = context.pointee.queuedFramesAreSilent(period)
    _ = context.pointee.unreadMediaFrames()
    progress.frames += frames
    let stopped = control.pointee.mediaStopped.load(ordering: .acquiring)
    if stopped && !progress.wasStopped { progress.stops += 1 }
    if !stopped && progress.wasStopped { progress.resumed = true }
    progress.wasStopped = stopped
    if !control.pointee.voiceStopped.load(ordering: .acquiring) { progress.voiceSounded = true }
}

private func topUp(_ producer: SPSCRing.Producer, from source: UnsafeMutablePointer<Int16>, sourceFrames: Int,
                   channels: Int) {
    let region = producer.writableRegion(maxSlots: sourceFrames)
    let frames = region.count / (2 * channels)
    guard frames > 0 else { return }
    region.baseAddress!.copyMemory(from: source, byteCount: frames * 2 * channels)
    producer.commit(frames)
}
