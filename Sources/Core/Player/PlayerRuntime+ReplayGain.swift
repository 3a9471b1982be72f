import LoopIO
import LibraryIO
import Alarms
import AudioDecoding
import AudioEngine
import BookFormat
import InterludeCore
import PlayerModel
import ReplayGain
import Streams
#if canImport(Glibc)
import Glibc
#endif

/// What the core makes of the settings read at start.
extension PlayerConfigFile {
    /// `alarm-grace`, or the scheduler's default.
    package var alarmGraceDuration: Duration {
        alarmGrace.map { .milliseconds(Int64(($0 * 1000).rounded())) } ?? AlarmScheduler.Settings.defaultLateRingGrace
    }

    /// `time-shift` and `time-shift-memory`, over the defaults.
    package var timeShiftSettings: TimeShiftSettings {
        var settings = TimeShiftSettings.standard(environment: ProcessEnvironment.current())
        if let seconds = timeShift {
            settings.limit = seconds >= 1 ? .milliseconds(Int64(PlayerConfigFile.timeShiftRange.milliseconds(seconds))) : nil
        }
        if let mebibytes = timeShiftMemory { settings.memoryBudgetBytes = mebibytes << 20 }
        return settings
    }

    /// `stream-timeout`, over the default.
    package var streamLimits: StreamLimits { streamTimeout.map { StreamLimits(requestSeconds: $0) } ?? .standard }

    /// The process's network deadlines from `stream-timeout` and
    /// `podcast-timeout`, for every station, feed and download opened from
    /// now on (a run's first step, before any of them).
    package func useNetworkLimits() {
        StreamLimits.use(streamLimits)
        TransferTimeout.use(podcastTimeout ?? TransferTimeout.standard)
    }

    /// The listener's ReplayGain settings: the command line's over the config file's.
    package func replayGainSettings(mode: ReplayGainMode?, preamp: Double?) -> ReplayGainSettings {
        ReplayGainSettings(mode: mode ?? replayGain ?? .off, preampDecibels: preamp ?? replayGainPreamp ?? 0)
    }
}

extension PlayerRuntime {
    /// Each music file's gain, from its tags, applied by the engine's mixer
    /// from the file's first frame. Books play as decoded: their files are
    /// parts of one reading, and a level change between chapters would be heard.
    package func installReplayGain() {
        let settings = configuration.replayGain
        guard settings.mode != .off, !isSpokenAudio else { return }
        let library = LibraryGainLookup(indexPath: LibrarySettings.load(environment: ProcessEnvironment.current(),
                                                                        config: configuration.settings).indexPath)
        engine.setTrackGain { path, decoder in
            var info = Self.replayGainInfo(path: path, decoder: decoder)
            if info.trackGain == nil && info.albumGain == nil { info = library.info(path: path) ?? info }
            return Float(settings.linearGain(for: info))
        }
    }

    /// The decoder's reading of the tags: ID3v2's TXXX and RVA2 with LAME's
    /// Info tag for what they lack, Vorbis comments, MP4 atoms.
    package static func replayGainInfo(path: String, decoder: any Decoder) -> ReplayGainInfo {
        decoder.tags.replayGain
    }
}

/// The values `interlude library scan --loudness` measured into the index,
/// for files whose tags carry none. The index is opened on the first such
/// file, and only when it exists: playing tagged files (or with no library)
/// never loads libsqlite3.
package final class LibraryGainLookup {
    private let indexPath: String
    private var index: LibraryIndex?
    private var unavailable = false

    package init(indexPath: String) { self.indexPath = indexPath }

    package func info(path: String) -> ReplayGainInfo? {
        guard !unavailable else { return nil }
        if index == nil {
            guard access(indexPath, R_OK) == 0, let opened = try? LibraryIndex(path: indexPath) else {
                unavailable = true
                return nil
            }
            index = opened
        }
        // The index holds paths under the library folders as configured; the file's real path second.
        let resolved = AbsolutePath.absolute(path)
        var candidates = path.hasPrefix("/") ? [path] : []
        if !candidates.contains(resolved) { candidates.append(resolved) }
        guard let row = candidates.lazy.compactMap({ try? self.index?.loudness(path: $0) }).first else { return nil }
        return ReplayGainInfo(trackGain: row.trackGain, trackPeak: row.trackPeak, albumGain: row.albumGain, albumPeak: row.albumPeak)
    }
}
