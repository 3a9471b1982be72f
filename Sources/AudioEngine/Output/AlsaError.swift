import CAlsa

/// A failed ALSA call, with ALSA's own message (`snd_strerror`) and the device name.
public struct AlsaError: Error, Sendable, CustomStringConvertible {
    public let device: String
    public let operation: String
    public let code: Int32
    public let message: String

    init(device: String, operation: String, code: Int32) {
        self.device = device
        self.operation = operation
        self.code = code
        message = String(cString: snd_strerror(code))
    }

    public var description: String {
        "audio device '\(device)': \(operation) failed: \(message)"
    }
}

/// Runs an ALSA call that returns a negative errno on failure.
@discardableResult
func alsaCheck(_ device: String, _ operation: String, _ result: Int32) throws(AlsaError) -> Int32 {
    guard result >= 0 else { throw AlsaError(device: device, operation: operation, code: result) }
    return result
}
