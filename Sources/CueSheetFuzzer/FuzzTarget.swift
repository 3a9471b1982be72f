import BookFormat

/// Everything a malformed cue sheet can reach: the text decoding (UTF-8 or
/// Latin-1), the words and quotes, the times, the checks between tracks, and
/// the chapters made from a sheet. libFuzzer and the replayer both call this.
func exerciseParser(_ bytes: UnsafeBufferPointer<UInt8>) {
    var total = 0
    do {
        let sheet = try CueSheet(bytes: Array(bytes))
        for file in sheet.files {
            for chapter in sheet.chapters(of: file, durationMilliseconds: 3_600_000) {
                precondition(chapter.endMilliseconds >= chapter.startMilliseconds)
                total &+= chapter.title.utf8.count &+ chapter.startMilliseconds
            }
        }
        total &+= sheet.file(named: "a.flac")?.tracks.count ?? 0
    } catch {
        total &+= error.description.utf8.count
    }
    // Touch the results so the work cannot be optimised away.
    precondition(total != Int.min)
}

/// libFuzzer's per-input callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    exerciseParser(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
