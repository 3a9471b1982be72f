import AudioDecoding

/// What the listener heard happen, in order.
public enum PlaybackEvent: Sendable {
    case trackStarted(index: Int, path: String)
    case trackEnded(index: Int, path: String)
    case skipped(DecoderError)
    case truncated(path: String, seconds: Double, expectedSeconds: Double)
    case underrun
    case starved
    case deviceLost(message: String)
    /// The output file could not be written (the render stops).
    case outputFailed(message: String)
    /// The output's server is not there (Snapcast): one line; playback goes on
    /// and the output feeds the server again once it is back.
    case outputAway(message: String)
    /// A pause took effect: the media is silent from this stream frame on.
    case mediaStopped(position: Int)
    case finished(underruns: Int)
}
