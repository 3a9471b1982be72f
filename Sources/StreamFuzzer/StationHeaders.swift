import AudioDecoding
import Glibc
import Streams

/// The `headers` target: each input is a whole answer of a station's server
/// (status line, headers, some body), served on loopback to the player's own
/// reader (`Decoders.open` of its URL: FFmpeg's http under `StreamBounds`),
/// which must end in one of its outcomes (audio, the server's end, a line)
/// within its bounds: a connection held past them is a failure here. An
/// answer naming a `Location` is left out (the reader would follow it off
/// the machine).
enum StationHeaders {
    /// A second for a request, two for audio: each input ends within seconds.
    static let limits = StreamLimits(requestSeconds: 1)

    static func exercise(_ input: [UInt8]) {
        if String(decoding: input, as: UTF8.self).lowercased().contains("location") { return }
        StreamLimits.use(limits)
        let responder = LoopbackResponder.shared
        responder.answer(with: input)
        let url = "http://127.0.0.1:\(responder.port)/station"
        guard let decoder = try? Decoders.open(path: url) else { return }
        defer { decoder.close() }
        guard let live = decoder as? any LiveStream else { preconditionFailure("\(url) opened as \(type(of: decoder))") }
        let started = seconds()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            var failure: DecoderError?
            let read: DecoderReadResult? = buffer.withUnsafeMutableBytes { bytes in
                do throws(DecoderError) { return try decoder.read(into: bytes) } catch {
                    failure = error
                    return nil
                }
            }
            // The first connection failed: the player's one line, which says something.
            guard let result = read else {
                precondition(failure.map { !$0.description.isEmpty } ?? false, "a failure without a line")
                return
            }
            if result != .notYet { return }
            if live.takeStreamEvents().contains(where: { if case .dropped = $0 { true } else { false } }) { return }
            let held = seconds() - started
            precondition(held < limits.audioSeconds + 5, "the reader held on \(held) s, past its bounds")
            guard live.wakeDescriptor >= 0 else { return }
            var ready = pollfd(fd: live.wakeDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 100)
        }
    }

    private static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
