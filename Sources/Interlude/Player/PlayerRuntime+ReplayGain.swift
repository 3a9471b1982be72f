import Alarms
import AudioDecoding
import AudioEngine
import BookFormat
import InterludeCore
import PlayerModel
import ReplayGain
#if canImport(Glibc)
import Glibc
#endif

/// The listener's config file, read for one setting; its problems are
/// reported once, by the event hook's reading of it. Empty when there is none.
enum UserConfigFile {
    static func load() -> PlayerConfigFile {
        let path = XDGDirectories(environment: ProcessEnvironment.current()).interludeConfig + "/config"
        guard access(path, F_OK) == 0, let bytes = try? StateFile(path: path).read() else { return PlayerConfigFile() }
        return PlayerConfigFile.parse(String(decoding: bytes, as: UTF8.self), path: path)
    }

    /// `alarm-grace`, or the scheduler's default.
    static var alarmGrace: Duration {
        load().alarmGrace.map { .milliseconds(Int64(($0 * 1000).rounded())) } ?? AlarmScheduler.Settings.defaultLateRingGrace
    }

    /// `podcast-refresh-age` in seconds, nil for never at start (0).
    static var podcastRefreshAge: Double? {
        let seconds = load().podcastRefreshAge ?? PlayerConfigFile.defaultPodcastRefreshAge
        return seconds > 0 ? seconds : nil
    }

    /// `time-shift` and `time-shift-memory`, over the defaults.
    static var timeShift: TimeShiftSettings {
        let config = load()
        var settings = TimeShiftSettings.standard(environment: ProcessEnvironment.current())
        if let seconds = config.timeShift {
            settings.limit = seconds >= 1 ? .milliseconds(Int64(PlayerConfigFile.timeShiftRange.milliseconds(seconds))) : nil
        }
        if let mebibytes = config.timeShiftMemory { settings.memoryBudgetBytes = mebibytes << 20 }
        return settings
    }

    /// `alarm-notify`: how long before an alarm its desktop notification comes; nil for none (0).
    static var alarmNotifyLead: Duration? {
        guard let seconds = load().alarmNotify else { return AlarmNotifications.defaultLead }
        return seconds > 0 ? .milliseconds(Int64((seconds * 1000).rounded())) : nil
    }
}

/// The listener's ReplayGain settings: the command line's over the config file's.
enum ReplayGainConfig {
    static func settings(mode: ReplayGainMode?, preamp: Double?) -> ReplayGainSettings {
        let config = UserConfigFile.load()
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
        guard settings.mode != .off, !isSpokenAudio else { return }
        let library = LibraryGainLookup(indexPath: LibrarySettings.load(environment: ProcessEnvironment.current()).indexPath)
        engine.setTrackGain { path, decoder in
            var info = Self.replayGainInfo(path: path, decoder: decoder)
            if info.trackGain == nil && info.albumGain == nil { info = library.info(path: path) ?? info }
            return Float(settings.linearGain(for: info))
        }
    }

    /// The decoder's reading of the tags: ID3v2's TXXX and RVA2 with LAME's
    /// Info tag for what they lack, Vorbis comments, MP4 atoms.
    static func replayGainInfo(path: String, decoder: any Decoder) -> ReplayGainInfo {
        decoder.tags.replayGain
    }
}

/// The values `interlude library scan --loudness` measured into the index,
/// for files whose tags carry none. The index is opened on the first such
/// file, and only when it exists: playing tagged files (or with no library)
/// never loads libsqlite3.
final class LibraryGainLookup {
    private let indexPath: String
    private var index: LibraryIndex?
    private var unavailable = false

    init(indexPath: String) { self.indexPath = indexPath }

    func info(path: String) -> ReplayGainInfo? {
        guard !unavailable else { return nil }
        if index == nil {
            guard access(indexPath, R_OK) == 0, let opened = try? LibraryIndex(path: indexPath) else {
                unavailable = true
                return nil
            }
            index = opened
        }
        // The index holds paths under the library folders as configured; the file's real path second.
        let resolved = BookOpener.absolutePath(path)
        var candidates = path.hasPrefix("/") ? [path] : []
        if !candidates.contains(resolved) { candidates.append(resolved) }
        guard let row = candidates.lazy.compactMap({ try? self.index?.loudness(path: $0) }).first else { return nil }
        return ReplayGainInfo(trackGain: row.trackGain, trackPeak: row.trackPeak, albumGain: row.albumGain, albumPeak: row.albumPeak)
    }
}
