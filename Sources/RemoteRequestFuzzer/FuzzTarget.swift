@_spi(Fuzzing) import Interlude
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

/// The MPD front end's request reader (`mpd`): the input as a client's
/// bytes, cut into lines as the server cuts them, each through the command
/// list and the tokenizer; every failure is one `ACK` line, and a list
/// answers only at its end. A request's numbers (`delete 1:3`, `move 2 0`)
/// then edit a queue of five (`QueueEdit`, the song ids after it): nothing
/// traps, and an edit keeps or drops entries as it says.
func exerciseMPDReader(_ bytes: UnsafeBufferPointer<UInt8>) {
    var list = MPDCommandList()
    for line in Array(bytes).split(separator: 0x0A, omittingEmptySubsequences: false) {
        var lines: [[UInt8]] = []
        switch list.take(Array(line)) {
        case .single(let one): lines = [one]
        case .run(let many, _): lines = many
        case .collected, .tooLong: continue
        }
        for (index, line) in lines.enumerated() {
            do {
                let request = try MPDRequest.parse(line)
                precondition(!request.command.isEmpty && request.arguments.count <= MPDRequest.maximumArguments)
                let ack = MPDFailure.argumentCount(request.command, expected: 0...1, given: request.arguments.count).line(index: index)
                precondition(ack.utf8.filter { $0 == 0x0A }.count == 1)
                _ = MPDPermission.needed(by: request.command)
                exerciseQueueEdit(request)
            } catch {
                let ack = error.line(index: index)
                precondition(ack.hasPrefix("ACK [") && ack.utf8.filter { $0 == 0x0A }.count == 1, ack)
            }
        }
    }
}

/// The request's first numbers as a queue edit of five entries, the entry that plays chosen by the last.
private func exerciseQueueEdit(_ request: MPDRequest) {
    let numbers = request.arguments.flatMap { $0.split(separator: ":") }.prefix(4).compactMap { Int($0) }
    guard numbers.count >= 2, numbers.allSatisfy({ (-1...Int(Int32.max)).contains($0) }) else { return }
    let queue = ["a", "b", "c", "d", "e"]
    let here = numbers[numbers.count - 1] % 6 - 1
    let edit: QueueEdit = switch numbers.count {
    case 2: .remove(from: numbers[0], count: numbers[1])
    case 3: .move(from: numbers[0], count: numbers[1], to: numbers[2])
    default: .shuffle(from: numbers[0], count: numbers[1])
    }
    var random = SystemRandomNumberGenerator()
    guard case .upcoming(let upcoming) = edit.upcoming(of: queue, here: here, random: &random) else { return }
    let after = Array(queue.dropFirst(max(0, here + 1)))
    if case .remove(_, let count) = edit {
        precondition(upcoming.count == after.count - count)
    } else {
        precondition(upcoming.sorted() == after.sorted())
    }
    var ids = MPDQueueIDs()
    ids.update(queue)
    ids.update(Array(queue.prefix(max(0, here + 1))) + upcoming)
    precondition(Set(ids.ids).count == ids.ids.count && ids.ids.count == max(0, here + 1) + upcoming.count)
}

/// The running player (`dispatch`), set before the driver starts.
nonisolated(unsafe) var dispatcher: RemoteDispatchFuzzing?
/// The target `INTERLUDE_FUZZ_TARGET` names; set once, before the driver starts.
nonisolated(unsafe) var selectedTarget: (UnsafeBufferPointer<UInt8>) -> Void = exerciseParser

/// The input as one request line to the running player, which must answer
/// within seconds (or close the connection, as a `quit` may) with JSON lines.
func exerciseDispatcher(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let dispatcher else { return }
    // One line: a newline inside would make two requests, each answered.
    let line = bytes.map { $0 == 0x0A ? 0x20 : $0 }
    guard let reply = dispatcher.request(line, seconds: 5) else {
        preconditionFailure("the player's socket did not come back within 5 s")
    }
    for replyLine in reply.split(separator: 0x0A) {
        precondition(replyLine.first == UInt8(ascii: "{") && replyLine.last == UInt8(ascii: "}"),
                     "a reply is not a JSON object: \(String(decoding: replyLine, as: UTF8.self))")
    }
}

/// libFuzzer's per-input callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // Sound: libFuzzer hands a buffer of exactly `size` bytes, or nil for 0.
    selectedTarget(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
