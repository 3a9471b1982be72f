@testable import AudioDecoding
import Foundation
import Synchronization
import Testing
import TestSupport

/// A path checked as a regular file and then swapped for a
/// FIFO before its decoder opens it. Each decoder reads the descriptor the
/// check opened (libmpg123 through its reader, libFLAC through stream
/// callbacks, libavformat through an AVIOContext), so nothing opens the name
/// again: the swap is refused in one line, and nothing waits for a writer.
@Suite struct SwappedForFIFOTests {
    enum Form: String, CaseIterable, Sendable { case mp3, flac, m4a }

    @Test(arguments: Form.allCases)
    func aFileSwappedForAFIFOAfterItsCheckIsRefusedInOneLineAndNothingBlocks(_ form: Form) throws {
        let source: String
        switch form {
        case .mp3: source = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        case .flac: source = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 1), as: .flac16)
        case .m4a: source = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 1), as: .aac)
        }
        let directory = ScratchFiles.makeDirectory("swapped-fifo")
        let path = "\(directory)/00.\(form.rawValue)"
        try FileManager.default.copyItem(atPath: source, toPath: path)
        let fifo = "\(directory)/waiting"
        #expect(mkfifo(fifo, 0o600) == 0)
        Decoders.afterCheckForTests.withLock { $0[path] = { _ = rename(fifo, path) } }
        defer { _ = Decoders.afterCheckForTests.withLock { $0.removeValue(forKey: path) } }

        // On a thread of its own: an open by name would wait in open(2) for a writer.
        let outcome = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let text: String
            do throws(DecoderError) { text = "opened \(try Decoders.open(path: path).format)" } catch { text = error.description }
            outcome.withLock { $0 = text }
            done.signal()
        }
        if done.wait(timeout: .now() + 10) == .timedOut {
            Issue.record("the open of the FIFO put in \(path)'s place blocked")
            // A writer that comes and goes lets the blocked open, then its reads, end.
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            _ = done.wait(timeout: .now() + 10)
        }
        #expect(outcome.withLock { $0 } == "\(path): cannot open: a fifo (named pipe), not a file")
    }
}
