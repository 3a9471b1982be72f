import BookFormat

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

/// libFuzzer's per-input callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // Sound: libFuzzer hands a buffer of exactly `size` bytes, or nil for 0.
    exerciseParser(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
