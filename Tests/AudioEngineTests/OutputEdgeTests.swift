@testable import AudioEngine
import CAlsa
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The output's C edges that used to fail quietly: each failure is now a
/// typed error with the library's or kernel's own message, in one line.
@Suite struct OutputEdgeTests {
    /// Stands for a PCM handle in calls whose alsa-lib functions are replaced.
    let handle = OpaquePointer(bitPattern: 0x1000)!

    @Test func aFailedPollDescriptorCountIsOneLineNamingTheDevice() throws {
        let error = try #require(throws: AlsaError.self) {
            _ = try AlsaOutput.pollDescriptors(handle, device: "hw:7", count: { _ in -EBADFD }, fill: { _, _, _ in 1 })
        }
        let line = OutputError.device(error).description
        #expect(line == "audio device 'hw:7': count poll descriptors failed: \(String(cString: snd_strerror(-EBADFD)))")
        #expect(!line.contains("\n"))
    }

    @Test func aFailedPollDescriptorFillIsOneLineAndNeverIndexesBeforeTheArray() throws {
        let error = try #require(throws: AlsaError.self) {
            _ = try AlsaOutput.pollDescriptors(handle, device: "pulse", count: { _ in 2 }, fill: { _, _, _ in -EIO })
        }
        let line = PlaybackEngine.StartError.output(.device(error)).description
        #expect(line == "audio device 'pulse': get poll descriptors failed: \(String(cString: snd_strerror(-EIO)))")
        #expect(!line.contains("\n"))
    }

    @Test func pollDescriptorsLeaveASlotForTheWakeUpDescriptor() throws {
        let descriptors = try AlsaOutput.pollDescriptors(handle, device: "pulse", count: { _ in 2 }, fill: { _, fds, capacity in
            fds[0].fd = 40
            fds[1].fd = 41
            return Int32(capacity)
        })
        defer { descriptors.pointer.deallocate() }
        #expect(descriptors.deviceCount == 2)
        #expect(descriptors.pointer[0].fd == 40 && descriptors.pointer[1].fd == 41)
    }

    /// The writer's wait fails with EIO: the loop ends reporting the device lost
    /// with errno's message, never as a finished stream.
    @Test func aFailingPollInTheWriterReportsTheDeviceLostNotFinished() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 2)
        var made: AlsaOutput?
        // ALSA's `null` device: a real PCM that needs no server (the poll never reaches it).
        let engine = PlaybackEngine(paths: [mp3]) { format throws(OutputError) in
            do throws(AlsaError) {
                let output = try AlsaOutput(device: "null", format: format, latencyMilliseconds: 100)
                made = output
                return output
            } catch {
                throw .device(error)
            }
        }
        try engine.open()
        let output = try #require(made)
        let device = try #require(output.device)
        device.pointee.waitForDevice = { _, _, _ in
            errno = EIO
            return -1
        }
        var events: [PlaybackEvent] = []
        var turns = 0
        while !engine.isOutputLost && !engine.isFinished && turns < 1000 {
            events += try engine.pump()
            if !engine.isOutputLost { usleep(2000) }
            turns += 1
        }
        let messages = events.compactMap { if case .deviceLost(let message) = $0 { message } else { nil } }
        #expect(messages == ["audio device 'null': wait (poll) failed: \(String(cString: strerror(EIO)))"])
        #expect(!events.contains { if case .finished = $0 { true } else { false } })
        #expect(engine.isOutputLost && !engine.isFinished)
    }
}
