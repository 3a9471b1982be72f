import PlayerModel

/// A line as the socket reads it: parsed to a request or one error, and the
/// reply written, which must itself be one line.
func exerciseParser(_ bytes: UnsafeBufferPointer<UInt8>) {
    let line: String
    do {
        let request = try RemoteRequest.parse(Array(bytes))
        line = RemoteReply.line(id: request.id, .refused(reason: .problem("\(request.action)")))
    } catch {
        precondition(!error.message.isEmpty)
        line = RemoteReply.failure(id: error.id, error.message)
    }
    // A reply with a raw newline would split into two for the client.
    precondition(!line.utf8.contains(0x0A))
}

/// libFuzzer's per-input callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // Sound: libFuzzer hands a buffer of exactly `size` bytes, or nil for 0.
    exerciseParser(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
