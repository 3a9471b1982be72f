@testable import Interlude
import Core
import Foundation
import Testing
import TestSupport

/// Special files at the queue's entry: whichever front end sends the
/// paths (browser, socket, standard input, MPRIS), a FIFO, a device or a
/// socket among them is left out and named in one line before the feeder
/// could open it; the other files stay, in order.
struct QueueSpecialFileTests {
    @Test func aFIFOAndADeviceAreLeftOutOfTheQueueAndNamed() throws {
        let directory = NSTemporaryDirectory() + "interlude-queue-special-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let pipe = directory + "/00.mp3"
        try WritableFIFO.make(pipe)
        let good = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let album = PlayerRuntime.expandingCueSheets([pipe, good, "/dev/zero"], startAt: 1)
        #expect(album.paths == [good])
        #expect(album.startAt == 0)
        #expect(album.problems == ["\(pipe): is a FIFO (named pipe), not an audio file",
                                   "/dev/zero: is a character device, not an audio file"])
    }
}
