import InterludeCore
import PlayerModel
import Testing

/// The control socket's request parser and `interlude remote`'s words, pure.
struct RemoteRequestTests {
    private func parse(_ line: String) -> Result<RemoteRequest, RemoteRequestError> {
        do { return .success(try RemoteRequest.parse(Array(line.utf8))) } catch { return .failure(error) }
    }

    private func error(_ line: String) -> RemoteRequestError? {
        if case .failure(let failure) = parse(line) { return failure }
        return nil
    }

    @Test("requests become actions, with the id kept")
    func requests() throws {
        #expect(try RemoteRequest.parse(Array(#"{"id":1,"command":"toggle"}"#.utf8))
            == RemoteRequest(id: .integer(1), action: .perform(.togglePlayPause)))
        #expect(try RemoteRequest.parse(Array(#"{"id":"a","command":"seek","args":[-5.5]}"#.utf8))
            == RemoteRequest(id: .string("a"), action: .perform(.seek(seconds: -5.5))))
        #expect(try RemoteRequest.parse(Array(#"{"command":"alarm-in","args":[3],"id":2}"#.utf8)).action
            == .perform(.addAlarm(afterSeconds: 3)))
        #expect(try RemoteRequest.parse(Array(#"{"id":3,"command":"queue-add","args":["/a.mp3","/b.mp3"]}"#.utf8)).action
            == .perform(.enqueue(["/a.mp3", "/b.mp3"])))
        #expect(try RemoteRequest.parse(Array(#"{"id":4,"command":"bookmark"}"#.utf8)).action
            == .perform(.addBookmark(note: nil)))
        #expect(try RemoteRequest.parse(Array(#"{"id":5,"command":"call-start","args":null}"#.utf8)).action == .callStart)
        // Standard input's words mean the same here.
        for (word, command) in StandardInputVocabulary.words {
            #expect(try RemoteRequest.parse(Array(#"{"id":9,"command":"\#(word)"}"#.utf8)).action == .perform(command))
        }
    }

    @Test("garbage, invalid JSON, unknown commands and wrong types each get one clear error")
    func errors() {
        #expect(error("garbage")?.message.hasPrefix("invalid JSON") == true)
        #expect(error("garbage")?.id == RemoteID.none)
        #expect(error(#"{"id":1,"command":"toggle""#)?.message.hasPrefix("invalid JSON") == true)
        #expect(error("[1,2]")?.message.contains("JSON object") == true)
        #expect(error(#"{"command":"toggle"}"#)?.message.contains("no \"id\"") == true)
        #expect(error(#"{"id":[1],"command":"toggle"}"#)?.message.contains("integer or a string") == true)
        #expect(error(#"{"id":1,"command":"dance"}"#) == RemoteRequestError(
            id: .integer(1), message: "unknown command 'dance' (one of: \(RemoteVocabulary.names))"))
        #expect(error(#"{"id":1,"command":7}"#)?.message.contains("\"command\" must be a string") == true)
        #expect(error(#"{"id":1,"command":"volume","args":["loud"]}"#)?.message
            == "volume: expects a number from 0 to 1, not a string")
        #expect(error(#"{"id":1,"command":"volume","args":[2]}"#)?.message == "volume: expects a number from 0 to 1, not 2")
        #expect(error(#"{"id":1,"command":"alarm-in","args":[1.5]}"#)?.message.hasPrefix("alarm-in: expects whole seconds") == true)
        #expect(error(#"{"id":1,"command":"toggle","args":[1]}"#)?.message == "toggle: takes no arguments")
        #expect(error(#"{"id":1,"command":"queue-add","args":[]}"#)?.message.hasPrefix("queue-add: expects one or more paths") == true)
        #expect(error(#"{"id":1,"command":"queue-add","args":["a",3]}"#)?.message.hasSuffix("not 3") == true)
        #expect(error(#"{"id":1,"command":"seek","args":"10"}"#)?.message == "\"args\" must be an array")
        #expect(error(#"{"id":"x","command":"speed","args":["sideways"]}"#)?.id == .string("x"))
    }

    @Test("replies are one line each, with the id, ok and the message or error")
    func replies() {
        #expect(RemoteReply.line(id: .integer(7), .done) == #"{"id":7,"ok":true}"#)
        #expect(RemoteReply.line(id: .string("q"), .done(report: .alarmSet(id: 1, seconds: 60, at: "07:30")))
            == #"{"id":"q","ok":true,"message":"alarm #1 rings in 1 minute, at 07:30"}"#)
        #expect(RemoteReply.line(id: .none, .refused(reason: .problem("an \"alarm\" rings\n")))
            == #"{"id":null,"ok":false,"error":"an \"alarm\" rings\n"}"#)
        #expect(RemoteReply.result(id: .integer(1), .object(["b": .array([.integer(1), .double(0.5)]), "a": .null]))
            == #"{"id":1,"ok":true,"result":{"a":null,"b":[1,0.5]}}"#)
    }

    @Test("interlude remote's words become the socket's commands and typed arguments")
    func commandLine() throws {
        func translate(_ words: String) throws -> String {
            RemoteCommandLine.requestLine(id: 1, try RemoteCommandLine.translate(words.split(separator: " ").map(String.init)))
        }
        #expect(try translate("toggle") == #"{"id":1,"command":"play-pause"}"#)
        #expect(try translate("alarm in 3s") == #"{"id":1,"command":"alarm-in","args":[3]}"#)
        #expect(try translate("alarm in 2m") == #"{"id":1,"command":"alarm-in","args":[120]}"#)
        #expect(try translate("seek +10") == #"{"id":1,"command":"seek","args":[10]}"#)
        #expect(try translate("seek -2.5") == #"{"id":1,"command":"seek","args":[-2.5]}"#)
        #expect(try translate("seek 1:30") == #"{"id":1,"command":"seek-to","args":[90]}"#)
        // seek-to reads times as its key's prompt does: a place from the start, or + and - from here.
        #expect(try translate("seek-to 1:23:45") == #"{"id":1,"command":"seek-to","args":[5025]}"#)
        #expect(try translate("seek-to +30") == #"{"id":1,"command":"seek","args":[30]}"#)
        #expect(try translate("seek-to -10") == #"{"id":1,"command":"seek","args":[-10]}"#)
        #expect(try translate("mute") == #"{"id":1,"command":"mute"}"#)
        #expect(try translate("call start") == #"{"id":1,"command":"call-start"}"#)
        #expect(try translate("chapter next") == #"{"id":1,"command":"chapter-next"}"#)
        #expect(try translate("alarm add tomorrow 07:30") == #"{"id":1,"command":"alarm-add","args":["tomorrow 07:30"]}"#)
        #expect(try translate("queue add /a.mp3 /b.mp3") == #"{"id":1,"command":"queue-add","args":["/a.mp3","/b.mp3"]}"#)
        #expect(try translate("events") == #"{"id":1,"command":"subscribe"}"#)
        #expect(try translate("volume 0.5") == #"{"id":1,"command":"volume","args":[0.5]}"#)
        #expect(throws: RemoteCommandLine.UsageError.self) { try translate("volume loud") }
        #expect(throws: RemoteCommandLine.UsageError.self) { try translate("alarm in soon") }
        #expect(throws: RemoteCommandLine.UsageError.self) { try translate("dance") }
        #expect(throws: RemoteCommandLine.UsageError.self) { try RemoteCommandLine.translate([]) }
        // Every line the command line makes is one the socket accepts.
        for words in ["toggle", "alarm in 3s", "seek +10", "seek 1:30", "call end", "queue list", "status", "speed up"] {
            let line = try translate(words)
            #expect(throws: Never.self) { try RemoteRequest.parse(Array(line.utf8)) }
        }
    }

    @Test("durations")
    func durations() {
        #expect(RemoteCommandLine.duration("90") == 90)
        #expect(RemoteCommandLine.duration("1:02:03") == 3723)
        #expect(RemoteCommandLine.duration("-5") == -5)
        #expect(RemoteCommandLine.duration("1h") == 3600)
        #expect(RemoteCommandLine.duration("1:75") == nil)
        #expect(RemoteCommandLine.duration("") == nil)
        #expect(RemoteCommandLine.duration("+") == nil)
        #expect(RemoteCommandLine.duration("x1") == nil)
    }
}
