import AudioEngine
@testable import Interlude
import Testing

/// What `--device NAME` chooses: `pulse` the native PulseAudio output,
/// `default` (also when no device is given) the server when one answers else
/// ALSA's default, `alsa:NAME` ALSA's NAME whatever it is, any other name ALSA.
struct DeviceChoiceTests {
    @Test("pulse is the native output, alsa:NAME and other names are ALSA, default (or none) is the system's default")
    func deviceNamesChooseTheirOutput() throws {
        func output(_ arguments: [String]) throws -> PlaybackEngine.Output {
            try PlayCommand.parse(["a.mp3"] + arguments).output
        }
        #expect(try output(["--device", "pulse"]) == .pulse(latencyMilliseconds: 300))
        #expect(try output(["--device", "pulse", "--latency", "120"]) == .pulse(latencyMilliseconds: 120))
        #expect(try output(["--device", "alsa:pulse"]) == .alsa(device: "pulse", latencyMilliseconds: 300))
        #expect(try output(["--device", "alsa:default"]) == .alsa(device: "default", latencyMilliseconds: 300))
        #expect(try output(["--device", "hw:0,0"]) == .alsa(device: "hw:0,0", latencyMilliseconds: 300))
        #expect(try output(["--device", "default"]) == .systemDefault(latencyMilliseconds: 300))
        #expect(try output([]) == .systemDefault(latencyMilliseconds: 300))
        #expect(try FullScreenCommand.parse(["--device", "pulse"]).output == .pulse(latencyMilliseconds: 300))
        #expect(try FullScreenCommand.parse([]).output == .systemDefault(latencyMilliseconds: 300))
    }
}
