import Alarms
import Foundation
import Testing

/// `alarm add --sound PATH` and special files: a FIFO is named by what it
/// is when the alarm is added, not opened (and blocked on) when it is due.
struct AlarmSoundPathTests {
    @Test func aFIFOAsTheSoundIsRefusedByWhatItIs() throws {
        let path = NSTemporaryDirectory() + "interlude-alarm-fifo-\(UInt64.random(in: 0...UInt64.max)).mp3"
        try #require(mkfifo(path, 0o600) == 0)
        #expect(throws: AlarmCommandError("alarm add: --sound \(path) is a FIFO (named pipe), not an audio file")) {
            _ = try AlarmInputParser.parseSound(path, fileExists: { _ in true })
        }
        #expect(throws: AlarmCommandError("alarm add: --sound /dev/zero is a character device, not an audio file")) {
            _ = try AlarmInputParser.parseSound("/dev/zero", fileExists: { _ in true })
        }
        #expect(try AlarmInputParser.parseSound("chime", fileExists: { _ in false }) == .tone(name: "chime"))
    }
}
