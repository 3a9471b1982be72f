extension PlaybackEngine.Output {
    /// Opens the output this choice names, for `format`: the one place that
    /// knows which `AudioOutput` implements which choice.
    public func open(format: AudioFormat) throws(OutputError) -> any AudioOutput {
        switch self {
        case .alsa(let device, let latency):
            do { return try AlsaOutput(device: device, format: format, latencyMilliseconds: latency) } catch {
                throw .device(error)
            }
        case .wav(let path):
            do { return try FileSink(.wav(path: path), format: format) } catch { throw .file(error) }
        case .null:
            do { return try FileSink(.null, format: format) } catch { throw .file(error) }
        }
    }
}
