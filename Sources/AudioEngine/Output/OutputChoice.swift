import AudioDecoding
import Rooms

extension PlaybackEngine.Output {
    /// What a device name means: `pulse` names the PulseAudio server, played
    /// through libpulse (`PulseOutput`); `default` is that server when one
    /// answers and ALSA's `default` device otherwise (as mpv and cmus choose);
    /// `alsa:NAME` is ALSA's device NAME whatever NAME is (`alsa:pulse` is
    /// ALSA's plugin to the server, `alsa:default` ALSA's default device); any
    /// other name is an ALSA device.
    public static func device(_ name: String, latencyMilliseconds: Int) -> Self {
        if name == "pulse" { return .pulse(latencyMilliseconds: latencyMilliseconds) }
        if name == "default" { return .systemDefault(latencyMilliseconds: latencyMilliseconds) }
        if name.hasPrefix("alsa:") && name.count > 5 {
            return .alsa(device: String(name.dropFirst(5)), latencyMilliseconds: latencyMilliseconds)
        }
        return .alsa(device: name, latencyMilliseconds: latencyMilliseconds)
    }

    /// The same choice for spoken audio (a book): a PulseAudio stream says so
    /// in its `media.role`, `audiobook`, for the desktop's policy; ALSA and
    /// the file outputs have nothing to say it with.
    public func forSpokenAudio() -> Self {
        switch self {
        case .pulse(let latency, _): .pulse(latencyMilliseconds: latency, role: "audiobook")
        case .systemDefault(let latency, _): .systemDefault(latencyMilliseconds: latency, role: "audiobook")
        case .alsa, .wav, .null, .snapcast: self
        }
    }

    /// The format the output takes whatever the files hold (a Snapcast
    /// stream's `sampleformat`); nil: the first file's.
    public var fixedFormat: AudioFormat? {
        guard case .snapcast(let stream) = self else { return nil }
        return AudioFormat(rate: stream.rate, channels: stream.channels)
    }

    /// Opens the output this choice names, for `format`: the one place that
    /// knows which `AudioOutput` implements which choice.
    public func open(format: AudioFormat) throws(OutputError) -> any AudioOutput {
        switch self {
        case .alsa(let device, let latency):
            do { return try AlsaOutput(device: device, format: format, latencyMilliseconds: latency) } catch {
                throw .device(error)
            }
        case .pulse(let latency, let role):
            do { return try PulseOutput(format: format, latencyMilliseconds: latency, role: role) } catch {
                throw .soundServer(error)
            }
        case .systemDefault(let latency, let role):
            // Never starts a server (autospawn off): none answering means ALSA's
            // default device, whose error is the one reported if it fails too.
            if let output = try? PulseOutput(device: "default", format: format, latencyMilliseconds: latency,
                                             role: role, startsServer: false) {
                return output
            }
            return try Self.alsa(device: "default", latencyMilliseconds: latency).open(format: format)
        case .wav(let path):
            do { return try FileSink(.wav(path: path), format: format) } catch { throw .file(error) }
        case .null:
            do { return try FileSink(.null, format: format) } catch { throw .file(error) }
        case .snapcast(let stream):
            do { return try SnapcastOutput(stream: stream, format: format) } catch { throw .snapcast(error) }
        }
    }
}
