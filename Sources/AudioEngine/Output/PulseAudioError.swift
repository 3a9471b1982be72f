import CPulse

/// A failed libpulse call of the native output, with libpulse's own message
/// (`pa_strerror`, or dlopen's when the library could not be loaded) and the
/// device name the user gave, in the words an ALSA device's error uses, so the
/// player's messages read the same whichever output failed.
public struct PulseAudioError: Error, Sendable, CustomStringConvertible {
    public let device: String
    public let operation: String
    /// libpulse's error code (`pa_context_errno`); 0 when `message` came from elsewhere.
    public let code: Int32
    public let message: String

    init(device: String, operation: String, code: Int32) {
        self.device = device
        self.operation = operation
        self.code = code
        message = interlude_pa_strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }

    init(device: String, operation: String, message: String) {
        self.device = device
        self.operation = operation
        code = 0
        self.message = message
    }

    public var description: String {
        "audio device '\(device)': \(operation) failed: \(message)"
    }
}
