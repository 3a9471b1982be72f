import Foundation

/// 16-bit PCM audio in memory: interleaved samples, a rate and a channel count.
///
/// `WAVFile.read` and `WAVFile.write` move it to and from RIFF WAV files. Frames are
/// counted per channel set (`frameCount = samples.count / channels`).
public struct PCMAudio: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    /// Interleaved samples: frame `f`, channel `c` is `samples[f * channels + c]`.
    public var samples: [Int16]

    public init(sampleRate: Int, channels: Int, samples: [Int16]) {
        precondition(channels > 0 && sampleRate > 0)
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
    }

    public var frameCount: Int { samples.count / channels }
    public var durationSeconds: Double { Double(frameCount) / Double(sampleRate) }

    /// One channel's samples.
    public func channel(_ index: Int) -> [Int16] {
        precondition(index < channels)
        return stride(from: index, to: frameCount * channels, by: channels).map { samples[$0] }
    }

    /// The average of all channels, as floats in -1...1 (for correlation).
    public func monoFloats() -> [Float] {
        var mono = [Float](repeating: 0, count: frameCount)
        let scale = 1 / (32768 * Float(channels))
        samples.withUnsafeBufferPointer { source in
            mono.withUnsafeMutableBufferPointer { target in
                for frame in 0..<target.count {
                    var sum: Int32 = 0
                    for channel in 0..<channels { sum += Int32(source[frame * channels + channel]) }
                    target[frame] = Float(sum) * scale
                }
            }
        }
        return mono
    }

    /// Frames `range` (clamped to the audio) as a new value.
    public func frames(_ range: Range<Int>) -> PCMAudio {
        let lower = max(0, min(range.lowerBound, frameCount))
        let upper = max(lower, min(range.upperBound, frameCount))
        return PCMAudio(sampleRate: sampleRate, channels: channels,
                        samples: Array(samples[(lower * channels)..<(upper * channels)]))
    }

    /// This audio followed by `other` (same rate and channels).
    public func appending(_ other: PCMAudio) -> PCMAudio {
        precondition(other.sampleRate == sampleRate && other.channels == channels,
                     "cannot append \(other.sampleRate) Hz x\(other.channels) to \(sampleRate) Hz x\(channels)")
        return PCMAudio(sampleRate: sampleRate, channels: channels, samples: samples + other.samples)
    }
}

public enum WAVError: Error, CustomStringConvertible, Sendable {
    case unreadable(path: String)
    case notWAV(path: String, reason: String)
    case unsupported(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path): return "\(path): cannot read the file"
        case let .notWAV(path, reason): return "\(path): not a RIFF WAV file (\(reason))"
        case let .unsupported(path, reason): return "\(path): unsupported WAV (\(reason))"
        }
    }
}

/// Reads and writes RIFF WAV files holding 16-bit PCM.
///
/// Reading skips chunks it does not need (LIST, fact, ...), accepts WAVE_FORMAT_EXTENSIBLE
/// with 16-bit PCM, and takes the data to the end of the file when the data size is
/// 0xFFFFFFFF or 0 or runs past the end (what `parec` leaves while it is still streaming,
/// or after being killed).
public enum WAVFile {
    public static func read(_ path: String) throws(WAVError) -> PCMAudio {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path) }
        return try parse(data, path: path)
    }

    public static func parse(_ data: Data, path: String = "<data>") throws(WAVError) -> PCMAudio {
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }

        guard bytes.count >= 12 else { throw .notWAV(path: path, reason: "\(bytes.count) bytes") }
        guard tag(0) == "RIFF", tag(8) == "WAVE" else { throw .notWAV(path: path, reason: "no RIFF/WAVE header") }

        var format: (channels: Int, rate: Int, bits: Int)?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = tag(offset)
            let declared = u32(offset + 4)
            let body = offset + 8
            if id == "fmt " {
                guard body + 16 <= bytes.count else { throw .notWAV(path: path, reason: "short fmt chunk") }
                var code = u16(body)
                if code == 0xFFFE, declared >= 40, body + 26 <= bytes.count {
                    code = u16(body + 24)  // the sub-format GUID starts with the real code
                }
                guard code == 1 else { throw .unsupported(path: path, reason: "format code \(code), want PCM") }
                format = (Int(u16(body + 2)), Int(u32(body + 4)), Int(u16(body + 14)))
            } else if id == "data" {
                guard let format else { throw .notWAV(path: path, reason: "data before fmt") }
                guard format.bits == 16 else { throw .unsupported(path: path, reason: "\(format.bits)-bit samples") }
                guard format.channels > 0, format.rate > 0 else { throw .notWAV(path: path, reason: "zero channels or rate") }
                var end = bytes.count
                if declared != 0 && declared != 0xFFFF_FFFF { end = min(bytes.count, body + Int(declared)) }
                let frameBytes = 2 * format.channels
                let usable = (end - body) / frameBytes * frameBytes
                var samples = [Int16](repeating: 0, count: usable / 2)
                samples.withUnsafeMutableBytes { target in
                    bytes.withUnsafeBytes { source in
                        target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[body..<body + usable]))
                    }
                }
                // WAV is little-endian, and so is every machine this runs on; be exact anyway.
                if UInt16(littleEndian: 1) != 1 { samples = samples.map { Int16(littleEndian: $0) } }
                return PCMAudio(sampleRate: format.rate, channels: format.channels, samples: samples)
            }
            // A streaming writer may leave a huge size on a non-data chunk too: stop there.
            guard declared != 0xFFFF_FFFF else { break }
            offset = body + Int(declared) + Int(declared & 1)  // chunks are padded to even sizes
        }
        throw .notWAV(path: path, reason: "no data chunk")
    }

    /// Writes `audio` as a canonical 44-byte-header PCM WAV.
    public static func write(_ audio: PCMAudio, to path: String) throws(WAVError) {
        guard FileManager.default.createFile(atPath: path, contents: encode(audio)) else {
            throw .unreadable(path: path)
        }
    }

    public static func encode(_ audio: PCMAudio) -> Data {
        var data = Data(capacity: 44 + audio.samples.count * 2)
        func put32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func put16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let dataBytes = UInt32(audio.samples.count * 2)
        data.append(contentsOf: Array("RIFF".utf8)); put32(36 + dataBytes)
        data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); put32(16)
        put16(1); put16(UInt16(audio.channels)); put32(UInt32(audio.sampleRate))
        put32(UInt32(audio.sampleRate * audio.channels * 2)); put16(UInt16(audio.channels * 2)); put16(16)
        data.append(contentsOf: Array("data".utf8)); put32(dataBytes)
        if UInt16(littleEndian: 1) == 1 {
            audio.samples.withUnsafeBytes { data.append(contentsOf: $0) }
        } else {
            for sample in audio.samples { put16(UInt16(bitPattern: sample)) }
        }
        return data
    }
}
