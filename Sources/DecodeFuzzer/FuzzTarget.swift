import AudioDecoding
import FuzzDriver

/// The decoders under the fuzzer. Each input becomes a file (the decoders
/// read paths, as the player does) and is decoded to its end, with a seek,
/// the tags, chapters and damage read as the feeder and `info` read them.
enum FuzzTarget: String, CaseIterable {
    case mpg123, flac, ffmpeg

    /// The type `Decoders.open` must pick for the input to count as this
    /// target's (another decoder's input is opened, not decoded further).
    var decoderName: String {
        switch self {
        case .mpg123: "Mpg123Decoder"
        case .flac: "FLACDecoder"
        case .ffmpeg: "FFmpegDecoder"
        }
    }

    func exercise(_ bytes: UnsafeBufferPointer<UInt8>) {
        var input = Array(bytes)
        // libFLAC takes a file by its magic: keep the mutations in its stream.
        if self == .flac, !input.starts(with: "fLaC".utf8) { input = Array("fLaC".utf8) + input }
        guard let path = FuzzDriver.inputFile(input, name: "decode"),
              let decoder = try? Decoders.open(path: path) else { return }
        defer { decoder.close() }
        guard String(describing: type(of: decoder)) == decoderName else { return }
        var total = decoder.format.rate &+ decoder.sourceFormat.channels &+ (decoder.lengthInFrames ?? 0)
        total &+= decoder.tags.title?.utf8.count ?? 0
        total &+= decoder.tags.chapters.count &+ decoder.tags.pictures.count
        decodeAll(decoder, total: &total)
        if let length = decoder.lengthInFrames, length > 0 {
            if (try? decoder.seek(toFrame: length / 2)) != nil { decodeAll(decoder, total: &total) }
        }
        if (try? decoder.scan()) != nil { total &+= decoder.lengthInFrames ?? 0 }
        total &+= decoder.takeDamage().count &+ decoder.streamInfo.bitrateKbps
        precondition(total != Int.min)
    }

    private func decodeAll(_ decoder: any Decoder, total: inout Int) {
        // Bounded: a decoder that gives frames forever is a hang, which libFuzzer reports as a timeout.
        for _ in 0..<100_000 {
            let result = buffer.withUnsafeMutableBytes { try? decoder.read(into: $0) }
            guard case .frames(let count) = result, count > 0 else { return }
            total &+= count
        }
    }
}

/// The parser `INTERLUDE_FUZZ_TARGET` names; set once, before the driver starts.
nonisolated(unsafe) var selectedTarget = FuzzTarget.mpg123
nonisolated(unsafe) var buffer = [UInt8](repeating: 0, count: 64 * 1024)
/// libFuzzer's per-input callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // Sound: libFuzzer hands a buffer of exactly `size` bytes, or nil for 0.
    selectedTarget.exercise(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
