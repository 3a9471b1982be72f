import PlayerModel
import AudioEngine
import InterludeCore

extension DesktopInterruptionSource {
    /// The source a host lists for playback on `output`, or nil when there is
    /// none to make: renders to a WAV file or the null sink run on the frame
    /// clock, where a render must come out the same every time whatever else
    /// plays on the desktop; and `desktop-interruptions = off` in the config
    /// file. Problems in the file are reported, one line each, and defaults kept.
    package static func forPlayback(output: PlaybackEngine.Output, config: PlayerConfigFile,
                            report: (String) -> Void) -> DesktopInterruptionSource? {
        switch output {
        case .alsa, .pulse, .systemDefault, .snapcast: break
        case .wav, .null: return nil
        }
        var settings = DesktopInterruptionSettings()
        if !config.text.isEmpty {
            let parsed = DesktopInterruptionSettings.parse(config.text, path: config.path)
            settings = parsed.settings
            for problem in parsed.problems { report(problem.description) }
        }
        guard settings.enabled else { return nil }
        // libpulse itself reads PULSE_SERVER (and its client.conf) when given no server.
        return DesktopInterruptionSource(settings: settings, server: nil)
    }
}
