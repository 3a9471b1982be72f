import AudioEngine
import InterludeCore
import PlayerModel
import ReplayGain
#if canImport(Glibc)
import Glibc
#endif

/// The listener's ReplayGain settings: the command line's over the config file's.
enum ReplayGainConfig {
    static func settings(mode: ReplayGainMode?, preamp: Double?) -> ReplayGainSettings {
        let path = XDGDirectories(environment: ProcessEnvironment.current()).interludeConfig + "/config"
        var config = PlayerConfigFile()
        // The config file's problems are reported once, by the event hook's reading of it.
        if access(path, F_OK) == 0, let bytes = try? StateFile(path: path).read() {
            config = PlayerConfigFile.parse(String(decoding: bytes, as: UTF8.self), path: path)
        }
        return ReplayGainSettings(mode: mode ?? config.replayGain ?? .off,
                                  preampDecibels: preamp ?? config.replayGainPreamp ?? 0)
    }
}

extension PlayerRuntime {
    /// Each music file's gain, from its tags, applied by the engine's mixer
    /// from the file's first frame. Books play as decoded: their files are
    /// parts of one reading, and a level change between chapters would be heard.
    func installReplayGain() {
        let settings = configuration.replayGain
        guard settings.mode != .off, !configuration.scenario.spoken else { return }
        engine.setTrackGain { path, decoder in
            Float(settings.linearGain(for: Self.replayGainInfo(path: path, decoder: decoder)))
        }
    }

    /// ID3v2 (TXXX, RVA2) and LAME's Info tag from the file's head, then the
    /// decoder's tags (Vorbis comments, MP4 atoms) for what those lack.
    static func replayGainInfo(path: String, decoder: any Decoder) -> ReplayGainInfo {
        let fields = decoder.tags().replayGain.map { (name: $0.key, value: $0.value) }
        return ReplayGainReader.read(path: path).filling(from: ReplayGainInfo(fields: fields))
    }
}
