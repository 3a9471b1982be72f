import AudioDecoding
import CAlsa
import CInterludeShims

/// An open ALSA playback PCM configured for the pipeline's format.
///
/// Buffer and period come from the requested latency: the buffer holds
/// `latency` of audio and is split into three periods, so the writer wakes
/// three times per buffer and a late wake-up has two periods of slack. (Four
/// periods cost measurably more CPU through the pulse plugin, whose server
/// asks for data once a period.) The start
/// threshold is the buffer's whole periods, so the device starts only once it is full
/// (no underrun right at the start) or when draining; after the writer drops the
/// queue (a pause, a resume) it starts the device by hand after its first write.
public final class AlsaPCM: @unchecked Sendable {
    // @unchecked Sendable: after configuration the handle is used by the writer
    // thread only; the main thread touches it again only after joining that thread.

    public let device: String
    public let format: AudioFormat
    public let handle: OpaquePointer
    public let bufferFrames: Int
    public let periodFrames: Int
    public let canPause: Bool
    /// What still sounds after `snd_pcm_drop`, in frames past the heard frame
    /// (frames written - delay): the writer's pause fade starts that far on. A
    /// kernel device stops at once (0). A sound server behind an I/O plugin
    /// (`pulse`, `pipewire`) still plays what its sink has mixed, and ALSA cannot
    /// tell how much: through PulseAudio's null sink (25 ms sink latency) it
    /// ranged from 2.5 to 25 ms with the phase of the sink's rendering at the drop
    /// (26 drops at random phases, median 11.5 ms; the seam itself was gapless).
    /// We take the middle, 12 ms, so the fade's first frame is at most about
    /// 13 ms away from the frame that preceded it (a skip or a repeat under the
    /// fade); the stop and resume positions are exact either way.
    public let dropLeftoverFrames: Int
    /// Threads the plugin started at the open and that now run at the writer's
    /// real-time priority (`PluginThreads`): 1 for `pulse`, 0 for a kernel device.
    public let pluginThreadsRaised: Int

    public init(device: String, format: AudioFormat, latencyMilliseconds: Int) throws(AlsaError) {
        self.device = device
        self.format = format
        interlude_silence_alsa_errors()
        var pcm: OpaquePointer?
        let threadsBefore = PluginThreads.current()
        try alsaCheck(device, "open", snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, 0))
        // A plugin's own thread (PulseAudio's main loop) carries the writer's calls: see `PluginThreads`.
        pluginThreadsRaised = PluginThreads.raiseStarted(since: threadsBefore)
        guard let pcm else { throw AlsaError(device: device, operation: "open", code: -ENODEV) }
        do {
            (bufferFrames, periodFrames, canPause) = try Self.configure(pcm, device: device, format: format,
                                                                         latencyMilliseconds: latencyMilliseconds)
        } catch {
            snd_pcm_close(pcm)
            throw error
        }
        handle = pcm
        dropLeftoverFrames = snd_pcm_type(pcm) == SND_PCM_TYPE_IOPLUG ? format.rate * 12 / 1000 : 0
    }

    deinit { snd_pcm_close(handle) }

    private static func configure(_ pcm: OpaquePointer, device: String, format: AudioFormat,
                                  latencyMilliseconds: Int) throws(AlsaError) -> (Int, Int, Bool) {
        var hwPointer: OpaquePointer?
        try alsaCheck(device, "allocate hardware parameters", snd_pcm_hw_params_malloc(&hwPointer))
        guard let hw = hwPointer else { throw AlsaError(device: device, operation: "allocate", code: -ENOMEM) }
        defer { snd_pcm_hw_params_free(hw) }
        try alsaCheck(device, "read hardware parameters", snd_pcm_hw_params_any(pcm, hw))
        try alsaCheck(device, "set interleaved access",
                      snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED))
        try alsaCheck(device, "set 16-bit samples", snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16))
        try alsaCheck(device, "set \(format.channels) channels",
                      snd_pcm_hw_params_set_channels(pcm, hw, UInt32(format.channels)))
        var rate = UInt32(format.rate)
        // Exact rate: a device that cannot do it fails here rather than playing at the wrong speed.
        try alsaCheck(device, "set rate \(format.rate) Hz", snd_pcm_hw_params_set_rate(pcm, hw, rate, 0))
        var bufferTime = UInt32(max(10, latencyMilliseconds) * 1000)
        var direction: Int32 = 0
        try alsaCheck(device, "set buffer time",
                      snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferTime, &direction))
        var periodTime = bufferTime / 3
        try alsaCheck(device, "set period time",
                      snd_pcm_hw_params_set_period_time_near(pcm, hw, &periodTime, &direction))
        try alsaCheck(device, "apply hardware parameters", snd_pcm_hw_params(pcm, hw))

        var bufferFrames: snd_pcm_uframes_t = 0
        var periodFrames: snd_pcm_uframes_t = 0
        snd_pcm_hw_params_get_buffer_size(hw, &bufferFrames)
        snd_pcm_hw_params_get_period_size(hw, &periodFrames, &direction)
        snd_pcm_hw_params_get_rate(hw, &rate, &direction)
        let canPause = snd_pcm_hw_params_can_pause(hw) != 0

        var swPointer: OpaquePointer?
        try alsaCheck(device, "allocate software parameters", snd_pcm_sw_params_malloc(&swPointer))
        guard let sw = swPointer else { throw AlsaError(device: device, operation: "allocate", code: -ENOMEM) }
        defer { snd_pcm_sw_params_free(sw) }
        try alsaCheck(device, "read software parameters", snd_pcm_sw_params_current(pcm, sw))
        try alsaCheck(device, "set start threshold",
                      snd_pcm_sw_params_set_start_threshold(pcm, sw, bufferFrames / periodFrames * periodFrames))
        try alsaCheck(device, "set wake-up threshold",
                      snd_pcm_sw_params_set_avail_min(pcm, sw, periodFrames))
        try alsaCheck(device, "apply software parameters", snd_pcm_sw_params(pcm, sw))
        return (Int(bufferFrames), Int(periodFrames), canPause)
    }
}
