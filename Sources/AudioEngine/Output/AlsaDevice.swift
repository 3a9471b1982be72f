import CAlsa
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// An ALSA PCM as the writer loop's device (`WriterDevice`): poll on its
/// descriptors and the engine's eventfd, one write of a period a turn, the
/// delay as the heard position, drop and prepare for a pause, bounded xrun
/// recovery. Plain values and raw pointers in one manually allocated block
/// (`AlsaOutput` owns it): no ARC on the writer thread.
struct AlsaDevice: WriterDevice {
    let context: UnsafeMutablePointer<WriterContext>
    let pcm: OpaquePointer
    /// The device's `deviceDescriptorCount` poll descriptors (fetched and
    /// checked in `AlsaOutput.attach`), then the eventfd.
    let descriptors: UnsafeMutablePointer<pollfd>
    let deviceDescriptorCount: Int
    let wakeFD: Int32
    let periodFrames: Int
    /// `AlsaPCM.dropLeftoverFrames`.
    let dropLeftoverFrames: Int
    /// The wait: `poll` itself. A C function pointer (no ARC), so a test can
    /// make the wait fail and check that the writer reports the device lost.
    var waitForDevice: @convention(c) (UnsafeMutablePointer<pollfd>?, nfds_t, Int32) -> Int32 = poll
    /// Xruns recovered in `write`, not yet taken by the loop.
    private var underruns = 0
    /// Stopped by `sleep`: the wait polls the eventfd alone (a prepared device's
    /// descriptors say there is room, always).
    private var asleep = false
    private var wakeCount: UInt64 = 0
    private var delay: snd_pcm_sframes_t = 0

    init(context: UnsafeMutablePointer<WriterContext>, pcm: AlsaPCM, descriptors: UnsafeMutablePointer<pollfd>,
         deviceDescriptorCount: Int, wakeFD: Int32) {
        self.context = context
        self.pcm = pcm.handle
        self.descriptors = descriptors
        self.deviceDescriptorCount = deviceDescriptorCount
        self.wakeFD = wakeFD
        periodFrames = pcm.periodFrames
        dropLeftoverFrames = pcm.dropLeftoverFrames
        descriptors[deviceDescriptorCount] = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
    }

    /// A poll that times out (a plugin whose descriptor was not made ready)
    /// falls through to a blocking write (`room`).
    mutating func wait(milliseconds: Int32) -> Int32 {
        for index in 0...deviceDescriptorCount { descriptors[index].revents = 0 }
        let first = asleep ? descriptors + deviceDescriptorCount : descriptors
        if waitForDevice(first, nfds_t(asleep ? 1 : deviceDescriptorCount + 1), milliseconds) < 0 {
            let code = errno
            if code != EINTR { return code }
        }
        if descriptors[deviceDescriptorCount].revents != 0 { _ = read(wakeFD, &wakeCount, 8) }
        return 0
    }

    mutating func beginTurn() -> DeviceTurn { .ready }
    mutating func endTurn() {}

    mutating func takeUnderruns() -> Int {
        defer { underruns = 0 }
        return underruns
    }

    /// A period, unless the engine's wake-up came with no room on the device
    /// (which did not say it had some in the same poll).
    mutating func room() -> Int {
        guard descriptors[deviceDescriptorCount].revents != 0 else { return periodFrames }
        for index in 0..<deviceDescriptorCount where descriptors[index].revents != 0 { return periodFrames }
        return 0
    }

    /// The delay, all of which a drop takes back; after a drop a sound server
    /// behind a plugin still plays `dropLeftoverFrames` of it. A resume drops
    /// only from a running device. PCM states are compared as raw values: `==`
    /// on the imported enum goes through its Equatable conformance, whose
    /// metadata the runtime builds, allocating, the first time it is used
    /// (`AllocationCountingTests` caught it at the first pause).
    mutating func measureQueue() -> DeviceQueue? {
        let running = snd_pcm_state(pcm).rawValue == SND_PCM_STATE_RUNNING.rawValue
        guard snd_pcm_delay(pcm, &delay) >= 0 else { return nil }
        return DeviceQueue(unheard: Int(delay), stillSounding: running ? dropLeftoverFrames : 0,
                           droppable: running ? Int(delay) : nil)
    }

    mutating func drop(measured: DeviceQueue) -> DeviceQueue? { dropAndPrepare() ? measured : nil }

    private mutating func dropAndPrepare() -> Bool { snd_pcm_drop(pcm) >= 0 && snd_pcm_prepare(pcm) >= 0 }

    static var fillsAfterDrop: Bool { false }

    /// Dropped and prepared: the device stops (a kernel device's DMA, the pulse
    /// plugin's stream) until the next write starts it by hand.
    mutating func sleep() -> Bool {
        asleep = dropAndPrepare()
        return asleep
    }

    /// Nothing more to let go: a dropped device is stopped.
    mutating func release() -> Bool { false }

    mutating func wake() -> DeviceTurn {
        asleep = false
        return .ready
    }

    mutating func write(frames: Int, replacingQueue: Bool) -> DeviceWrite {
        let written = snd_pcm_writei(pcm, context.pointee.scratch, snd_pcm_uframes_t(frames))
        guard written >= 0 else { return recover(written) ? .retry : .lost(code: written) }
        // The start threshold is the whole buffer: after a drop the device starts by hand.
        if replacingQueue && snd_pcm_state(pcm).rawValue == SND_PCM_STATE_PREPARED.rawValue { snd_pcm_start(pcm) }
        return .written(frames: written)
    }

    mutating func unheardFrames() -> Int? { snd_pcm_delay(pcm, &delay) >= 0 ? Int(delay) : nil }

    /// Starts the device if the short stream never filled the buffer, then
    /// blocks until it has played the last frame.
    mutating func drain() -> Bool {
        snd_pcm_drain(pcm)
        return true
    }

    static var measuresEveryTurn: Bool { false }

    /// Bounded recovery: an xrun is prepared away; a suspend is resumed (or
    /// prepared); anything else means the device is gone and the main thread decides.
    private mutating func recover(_ error: Int) -> Bool {
        if error == -Int(EPIPE) {
            underruns += 1
            return snd_pcm_prepare(pcm) >= 0
        }
        if error == -Int(ESTRPIPE) {
            var attempts = 0
            var result = snd_pcm_resume(pcm)
            while result == -EAGAIN && attempts < 50 {
                snd_pcm_wait(pcm, 20)
                result = snd_pcm_resume(pcm)
                attempts += 1
            }
            return result >= 0 || snd_pcm_prepare(pcm) >= 0
        }
        return error == -Int(EINTR) || error == -Int(EAGAIN)
    }
}

/// The thread entry: a C function with a raw pointer to the device, so
/// starting the thread moves no Swift object across.
let alsaWriterEntry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
    writerLoop(raw!.assumingMemoryBound(to: AlsaDevice.self))
    return nil
}
