import Streams

/// The parsers under the fuzzer and what follows them: each ICY input is a
/// block and also a stream split at an interval taken from its first byte
/// (chunked at another), so the length byte, a block cut short and the
/// 4080-byte limit are all reached; each PLS entry is classified as a URL;
/// each `tags` input is a timed ID3 tag (HLS's), whole or five bytes short as
/// FFmpeg 5.1 gives it, and also an artist and a title split at the first byte;
/// each `headers` input is a server's whole answer, read by the player's
/// reader over loopback (`StationHeaders`).
enum FuzzTarget: String, CaseIterable {
    case icy, pls, tags, headers

    func exercise(_ bytes: UnsafeBufferPointer<UInt8>) {
        var total = 0
        switch self {
        case .headers:
            StationHeaders.exercise(Array(bytes))
        case .icy:
            let block = ICYMetadata.parse(bytes)
            total &+= block.fields.reduce(0) { $0 &+ $1.key.utf8.count &+ $1.value.utf8.count }
            total &+= ICYHeaders.parse(bytes).problems.count
            let input = Array(bytes)
            let metaint = Int(input.first ?? 1) + 1
            let chunk = Int(input.last ?? 7) % 97 + 1
            guard var splitter = ICYStreamSplitter(metaint: metaint) else { preconditionFailure("metaint \(metaint) refused") }
            var audio = 0
            var start = 0
            while start < input.count {
                let end = min(start + chunk, input.count)
                for piece in splitter.push(Array(input[start..<end])) {
                    switch piece {
                    case .audio(let bytes): audio += bytes.count
                    case .metadata(let metadata): total &+= metadata.fields.count
                    }
                }
                start = end
            }
            precondition(audio <= input.count, "more audio than input")
            if case .blockCutShort(let received, let expected) = splitter.end {
                precondition(received < expected && expected <= ICYMetadata.maximumBlockBytes, "a cut block of \(received)/\(expected)")
            }
        case .pls:
            let playlist = PLSPlaylist.parse(bytes)
            for entry in playlist.entries {
                switch entry.location {
                case .url(let url):
                    precondition((1...65535).contains(url.effectivePort) && !url.host.isEmpty, "a URL let through: \(url)")
                    precondition(url.text.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) },
                                 "a control character in a URL")
                case .path(let path): total &+= path.utf8.count
                case .refused(let why): total &+= why.utf8.count
                }
                precondition(entry.lengthSeconds.map(PLSPlaylist.lengthSeconds.contains) ?? true)
            }
            total &+= playlist.problems.count
        case .tags:
            let input = Array(bytes)
            let titles = [StreamTags.title(timedID3: input),
                          StreamTags.title(artist: Array(input.prefix(Int(input.first ?? 0))), title: Array(input.dropFirst(Int(input.first ?? 0))))]
            for title in titles.compactMap({ $0 }) {
                // Two values of at most the limit each, and the " - " between them.
                precondition(!title.isEmpty && title.utf8.count <= 2 * StreamTags.maximumValueBytes * 2 + 3, "a title of \(title.utf8.count) bytes")
                total &+= title.utf8.count
            }
        }
        precondition(total != Int.min)
    }
}

/// The parser `INTERLUDE_FUZZ_TARGET` names; set once, before the driver starts.
nonisolated(unsafe) var selectedTarget = FuzzTarget.icy

/// libFuzzer's per-input callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // Sound: libFuzzer hands a buffer of exactly `size` bytes, or nil for 0.
    selectedTarget.exercise(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
