import Rooms
import Testing

struct SnapcastStreamTests {
    @Test func aSourceLineCopiedFromSnapserverConfNamesThePipeAndItsFormat() throws {
        let stream = try SnapcastStream.parse("pipe:///tmp/snapfifo?name=Interlude&sampleformat=44100:16:1&codec=flac&mode=create")
        #expect(stream.path == "/tmp/snapfifo")
        #expect(stream.rate == 44100)
        #expect(stream.channels == 1)
        #expect(stream.bufferMilliseconds == 1000)
        #expect(stream.leadMilliseconds == 200)
        #expect(stream.name == "Interlude")
        #expect(stream.controlHost == "127.0.0.1" && stream.controlPort == 1705)
    }

    @Test func theServersControlPortIsTheUsersToSet() throws {
        let stream = try SnapcastStream.parse("/tmp/f?control=192.168.1.5:1805")
        #expect(stream.controlHost == "192.168.1.5" && stream.controlPort == 1805)
        #expect(try SnapcastStream.parse("/tmp/f?control=localhost:1705").controlHost == "127.0.0.1")
    }

    @Test func aBarePathTakesSnapserversDefaults() throws {
        let stream = try SnapcastStream.parse("/run/snapserver/fifo")
        #expect(stream == SnapcastStream(path: "/run/snapserver/fifo", rate: 48000, channels: 2, bufferMilliseconds: 1000,
                                         leadMilliseconds: 200))
        #expect(stream.name == "default")
    }

    @Test func theServersBufferAndTheLeadAreTheUsersToSet() throws {
        let stream = try SnapcastStream.parse("pipe:///tmp/f?buffer=400&lead=80")
        #expect(stream.bufferMilliseconds == 400)
        #expect(stream.leadMilliseconds == 80)
        // A longer chunk needs a longer lead: ten chunks.
        #expect(try SnapcastStream.parse("/tmp/f?chunk_ms=40").leadMilliseconds == 400)
    }

    @Test(arguments: [
        ("pipe:///tmp/f?sampleformat=48000:24:2", "only 16-bit samples"),
        ("pipe:///tmp/f?sampleformat=*:16:2", "is not RATE:16:CHANNELS"),
        ("pipe:///tmp/f?sampleformat=48000:16:9", "is not RATE:16:CHANNELS"),
        ("pipe:///tmp/f?sampleformat=999999999999999999999:16:2", "is not RATE:16:CHANNELS"),
        ("pipe:///tmp/f?buffer=5", "buffer '5' is not a whole number of milliseconds from 20 to 10000"),
        ("pipe:///tmp/f?lead=-1", "lead '-1' is not a whole number of milliseconds from 20 to 1000"),
        ("pipe:///tmp/f?rate=48000", "unknown key 'rate'"),
        ("tmp/f", "must be an absolute path"),
        ("tcp://127.0.0.1:4953", "a TCP source is not fed"),
        ("/tmp/f?control=snapserver:1705", "control 'snapserver:1705' is not IPV4:PORT"),
        ("/tmp/f?control=127.0.0.1:99999", "is not IPV4:PORT"),
    ])
    func aWrongPartIsNamedInOneLine(text: String, says: String) {
        #expect {
            _ = try SnapcastStream.parse(text)
        } throws: { error in
            let message = (error as? SnapcastStream.ParseError)?.message ?? ""
            return message.contains(says) && message.hasPrefix(text) && !message.contains("\n")
        }
    }

    @Test func theSourceLineTheReadmeShowsParsesBackToTheSameStream() throws {
        var stream = SnapcastStream(path: "/tmp/snapfifo", rate: 44100, channels: 2)
        stream.name = "Interlude"
        let line = stream.sourceLine
        #expect(line.hasPrefix("source = "))
        #expect(try SnapcastStream.parse(String(line.dropFirst("source = ".count))) == stream)
    }
}
