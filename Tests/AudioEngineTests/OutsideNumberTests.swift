import AudioDecoding
@testable import AudioEngine
import Glibc
import InterludeCore
import Testing
import TestSupport

/// Numbers from outside at the engine: from a state file, a client or
/// the sound server reach no trapping conversion. A `player.json` position of
/// 1e300 trapped in `frames(forSeconds:)` on every start.
struct OutsideNumberTests {
    @Test func framesForSecondsIsTotal() {
        let format = AudioFormat(rate: 48_000, channels: 2)
        #expect(format.frames(forSeconds: 1e300) == AudioFormat.frameLimit)
        #expect(format.frames(forSeconds: -1e300) == -AudioFormat.frameLimit)
        #expect(format.frames(forSeconds: .infinity) == AudioFormat.frameLimit)
        #expect(format.frames(forSeconds: .nan) == 0)
        #expect(format.frames(forSeconds: 2.5) == 120_000)
        // The limit leaves room for bytes: 16 a frame for 8 channels.
        #expect(AudioFormat.frameLimit.multipliedReportingOverflow(by: 16).overflow == false)
    }

    @Test func theServersTimingNumbersAreClampedBeforeTheArithmetic() {
        let sane = PulseDevice.queue(writeIndex: 40_000, readIndex: 20_000, sinkMicroseconds: 5_000, bytesPerFrame: 4, rate: 48_000)
        #expect(sane.afterReadIndex == 5_000 && sane.inSink == 240)
        let wild = PulseDevice.queue(writeIndex: .max, readIndex: .min, sinkMicroseconds: .max, bytesPerFrame: 4, rate: 48_000)
        #expect(wild.afterReadIndex == 0 && wild.inSink == 480_000)
        let behind = PulseDevice.queue(writeIndex: 0, readIndex: 1 << 40, sinkMicroseconds: 0, bytesPerFrame: 4, rate: 48_000)
        #expect(behind.afterReadIndex == 0)
        let far = PulseDevice.queue(writeIndex: 1 << 60, readIndex: 0, sinkMicroseconds: 0, bytesPerFrame: 4, rate: 48_000)
        #expect(far.afterReadIndex == 480_000)
    }

    @Test func theServersGrantedBufferIsClampedToTenSeconds() {
        let format = AudioFormat(rate: 48_000, channels: 2)
        let granted = PulseConnection.granted(tlength: .max, minreq: .max, format: format)
        #expect(granted.buffer == 10 * 48_000 * 4 && granted.request == granted.buffer)
        let asked = PulseConnection.granted(tlength: 9_600, minreq: 960, format: format)
        #expect(asked.buffer == 9_600 && asked.request == 960)
    }

    @Test func aFIFONamedLikeAnMP3IsRefusedByDecodersOpenWithoutBlocking() throws {
        let directory = "/tmp/interlude-decoders-fifo-\(UInt64.random(in: 0...UInt64.max))"
        mkdir(directory, 0o700)
        let path = directory + "/00.mp3"
        try WritableFIFO.make(path)
        do {
            _ = try Decoders.open(path: path)
            Issue.record("a FIFO opened as audio")
        } catch {
            #expect(error.description == "\(path): is a FIFO (named pipe), not an audio file")
        }
    }
}
