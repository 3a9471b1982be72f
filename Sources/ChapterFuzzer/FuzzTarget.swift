import BookFormat
import FuzzDriver

/// Everything a malformed tag can reach: header, frames, text decoding,
/// CHAP/CTOC, ordering. libFuzzer and the replayer both call this.
func exerciseParser(_ bytes: UnsafeBufferPointer<UInt8>) {
    let list = ChapterList(tagBytes: Array(bytes)[...])
    // Touch the results so the work cannot be optimised away.
    var total = 0
    for chapter in list.chapters {
        total &+= chapter.title.utf8.count &+ chapter.startMilliseconds &+ chapter.endMilliseconds
    }
    if let damage = list.damage { total &+= damage.description.utf8.count }
    precondition(total != Int.min)
}

/// The FLAC, Ogg, MP4, AIFF/WAV/DSF/DFF chunk, ASF and APEv2 tag readers: the bytes
/// as a file's first bytes (read from memory, nothing behind them), then as
/// a file, which `AudioTags.read` walks by its block and box headers; the
/// APEv2 parser over the bytes as a whole file (its tag at the end or the
/// start), and the MPEG-audio start check and the file kinds over them.
func exerciseContainerTags(_ bytes: UnsafeBufferPointer<UInt8>) {
    let input = Array(bytes)
    var found = [AudioTags.read(path: "/nonexistent/interlude-fuzz-container", head: input)]
    if let path = FuzzDriver.inputFile(input, name: "container") { found.append(AudioTags.read(path: path)) }
    func read(_ offset: Int, _ count: Int) -> [UInt8] {
        offset >= 0 && offset < input.count && count > 0 ? Array(input[offset..<offset + min(count, input.count - offset)]) : []
    }
    if let tag = APEv2Tag.read(length: input.count, read) { found.append(AudioTags(fields: tag.fields)) }
    var total = MPEGAudioStart.isMPEGAudio(read) ? 1 : 0
    total &+= FileKind.of(Array(input.prefix(4096)))?.name.utf8.count ?? 0
    for tags in found {
        total &+= (tags.title?.utf8.count ?? 0) &+ tags.artists.count &+ (tags.album?.utf8.count ?? 0)
            &+ tags.pictures.count &+ tags.chapters.count
    }
    precondition(total != Int.min)
}

/// The parser the run fuzzes (`INTERLUDE_FUZZ_TARGET`); set once, before the driver starts.
nonisolated(unsafe) var selectedParser: (UnsafeBufferPointer<UInt8>) -> Void = exerciseParser

/// libFuzzer's per-input callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // Sound: libFuzzer hands a buffer of exactly `size` bytes, or nil for 0.
    selectedParser(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
