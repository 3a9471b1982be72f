import Streams
import LibraryIO
import Core
import AudioEngine
import BookFormat
import InterludeCore
import PlayerModel
import Playlists
import ReplayGain
import SpokenAudio
import Rooms
#if canImport(Glibc)
import Glibc
#endif

/// `interlude play FILE...`: plays without the TUI.
public enum PlayCommand {
    public static let help = """
    usage: interlude play FILE...|URL...|BOOK [--device D] [--output wav:PATH|null] [--latency MS] [--speed X] [--events json]

    Plays audio files (\(AudioFileNames.formatList)) one after another,
    gaplessly, without the full-screen UI.
    A cue sheet (ALBUM.cue) plays its tracks, each a queue entry; the audio file
    beside a cue sheet is a book with the sheet's tracks as chapters (see --book).
    A URL (http, https, a live HLS playlist) plays a station, in real time, its
    titles as streamTitle events; a playlist (M3U, M3U8, PLS) plays what it names.

    options:
      --device D          where to play: pulse (the PulseAudio server, through
                          libpulse), an ALSA device name, or alsa:NAME for any
                          ALSA device (alsa:pulse: ALSA's plugin to the server),
                          or snapcast:pipe:///PATH?sampleformat=RATE:16:CHANNELS
                          for a snapserver's pipe source (every room in sync;
                          see the README's Snapcast section)
                          (default: default, the PulseAudio server when one
                          answers, else ALSA's default device)
      --output wav:PATH   render to a 16-bit WAV file as fast as possible instead
      --output null       decode and discard, as fast as possible
      --latency MS        device buffer length in milliseconds (default: 300; lower
                          makes an alarm silence the music sooner, at more CPU)
      --speed X           playback speed from 0.5 to 3.0 in steps of 0.05 (default 1.0),
                          pitch kept; positions in events stay in the file's own time
      --replaygain MODE   track, album or off (default: the config file's
                          `replaygain`, else off); the peak keeps it from clipping
      --replaygain-preamp DB  added to every tagged file's gain (-20 to 20, default 0)
      --events json       print one JSON object per line on stdout for each event:
                          trackStarted, trackEnded, underrun, error, finished;
                          each has "t" (seconds since start) and "event"

    staging interruptions (times in seconds from the start of playback; durations
    like 5, 2.5s, 500ms, 1m):
      --alarm-in DUR      an alarm rings after DUR
      --alarm-ring DUR    how long it rings before timing out (default 60s)
      --alarm-sound SOUND what rings instead of the built-in tone: a file, a folder,
                          playlist:NAME, book:PATH or a station's URL (as alarm add --sound)
      --alarm-ramp DURATION  the alarm rises from silence over 1s-10m
      --alarm-rooms NAMES    with --device snapcast:..., the alarm rings in these rooms
                          only (Snapcast clients or groups, by name, comma-separated)
      --suspend-at T      suspend the session at T (as Ctrl-Z would) ...
      --continue-at T     ... and continue it at T
      --notify-at T       a notification chime at T (music ducks to -14 dB)
      --call-at T         a simulated call from T ...
      --call-end T        ... to T
      --resume-delay S    delay of the single resume attempt after a suspension (0.1-5, default 1)
      --smart-rewind MAX  maximum smart rewind in seconds (default 30 with --spoken, else 0)
      --fade DUR          the fade before a pause (default 30ms)
      --spoken            spoken audio: paused rather than ducked, smart rewind on resume
      --start TIME        start TIME into the first file (seconds, or like 1:30; not a book,
                          which starts where it was left)
      --trim-silence off|on|gentle|medium|strong
                          spoken audio (a book, an episode, --spoken): pauses shortened
                          to at most 0.6, 0.45 or 0.35 s (on: medium); a book remembers it
      --voice-boost off|on|LUFS
                          spoken audio: voices levelled live to -24..-12 LUFS (on: -18),
                          true peak under -1 dBTP; a book remembers it
    With --events json, every interruption notification and player action is
    printed too (interruption, paused, resumeScheduled, resumed, ducked, ...).

    \(BookPlayOptions.help)

    Standard input takes one command a line:
      \(StandardInputVocabulary.words.prefix(6).map(\.word).joined(separator: ", ")),
      \(StandardInputVocabulary.words.dropFirst(6).map(\.word).joined(separator: ", ")).

    Files that cannot be played are reported on stderr and skipped. The exit
    status is 0 when anything played, 1 when nothing could be played.
    """

    public struct Options: Equatable, Sendable {
        public var files: [String] = []
        /// 300 ms: the writer wakes every 100 ms. Through the pulse plugin each
        /// wake-up costs a round of locking and a server request; at 100 ms the
        /// player used 2.5 times the mpg123 program's CPU, at 200 ms 1.4 times.
        public static let defaultLatency = 300
        static let latencyRange = CountRange(10...2000, unit: "milliseconds")
        public var output: PlaybackEngine.Output = .systemDefault(latencyMilliseconds: defaultLatency)
        public var jsonEvents = false
        public var speed = PlaybackSpeed.normal
        public var scenario = ScenarioOptions()
        public var book = BookPlayOptions()
        /// Overrides of the config file's `replaygain` and `replaygain-preamp`.
        public var replayGain: ReplayGainMode?
        public var replayGainPreamp: Double?
        /// `--trim-silence` and `--voice-boost`: spoken audio's settings for this run (a book keeps them).
        public var trimSilence: TrimStrength?
        public var voiceBoost: VoiceBoost?
        /// `--start`: seconds into the first file.
        public var start: Double?
        /// `interlude podcast play`: the episode to play as a book instead of `files`.
        public var episode: EpisodeRequest?
    }

    /// A podcast and one of its episodes, as the listener named them.
    public struct EpisodeRequest: Equatable, Sendable {
        public var podcast: String
        public var episode: String?
    }

    static let spec = ArgumentSpec(command: "play",
                                   valued: Set(["--device", "--output", "--latency", "--speed", "--events", "--replaygain",
                                                "--replaygain-preamp", "--trim-silence", "--voice-boost", "--start"])
                                       .union(ScenarioOptions.valuedFlags).union(BookPlayOptions.valuedFlags),
                                   flags: ScenarioOptions.flags.union(BookPlayOptions.flags))

    public static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        let parsed = try spec.parse(arguments)
        var options = Options()
        options.files = parsed.positionals
        guard !options.files.isEmpty else { throw UsageError("play: no files given (see 'interlude play --help')") }
        var latency = Options.defaultLatency
        if let text = parsed.value("--latency") {
            guard let value = Options.latencyRange.parse(text) else {
                throw UsageError("play: --latency '\(text)' is not \(Options.latencyRange.accepts)")
            }
            latency = value
        }
        if let text = parsed.value("--speed") {
            guard let speed = PlaybackSpeed(parsing: text) else {
                throw UsageError("play: --\(PlaybackSpeed.rejection(text))")
            }
            options.speed = speed
        }
        if let text = parsed.value("--start") {
            guard let seconds = ScenarioOptions.moment.parse(text) else {
                throw UsageError("play: --start '\(text)' is not \(ScenarioOptions.moment.accepts)")
            }
            options.start = seconds
        }
        if let text = parsed.value("--trim-silence") {
            guard let strength = TrimStrength(parsing: text) else {
                throw UsageError("play: --trim-silence '\(text)' is not \(TrimStrength.accepts)")
            }
            options.trimSilence = strength
        }
        if let text = parsed.value("--voice-boost") {
            guard let boost = VoiceBoost(parsing: text) else {
                throw UsageError("play: --voice-boost '\(text)' is not \(VoiceBoost.accepts)")
            }
            options.voiceBoost = boost
        }
        if let text = parsed.value("--replaygain") {
            guard let mode = ReplayGainMode(rawValue: text.lowercased()) else {
                throw UsageError("play: --replaygain '\(text)' is not \(ReplayGainMode.choices)")
            }
            options.replayGain = mode
        }
        if let text = parsed.value("--replaygain-preamp") {
            guard let decibels = PlayerConfigFile.preamp(text) else {
                throw UsageError("play: --replaygain-preamp '\(text)' is not \(PlayerConfigFile.preampAccepts)")
            }
            options.replayGainPreamp = decibels
        }
        let device = parsed.value("--device") ?? "default"
        if device.hasPrefix(snapcastPrefix) {
            do throws(SnapcastStream.ParseError) {
                options.output = .snapcast(try SnapcastStream.parse(String(device.dropFirst(snapcastPrefix.count))))
            } catch {
                throw UsageError("play: --device \(snapcastPrefix)\(error.message)")
            }
        } else {
            options.output = .device(device, latencyMilliseconds: latency)
        }
        if let output = parsed.value("--output") {
            if output == "null" {
                options.output = .null
            } else if output.hasPrefix("wav:"), output.count > 4 {
                options.output = .wav(path: String(output.dropFirst(4)))
            } else {
                throw UsageError("play: --output '\(output)' is not wav:PATH or null")
            }
            if parsed.value("--device") != nil {
                throw UsageError("play: --device and --output exclude each other")
            }
        }
        if let events = parsed.value("--events") {
            guard events == "json" else { throw UsageError("play: --events '\(events)' is not json") }
            options.jsonEvents = true
        }
        if Self.rendersToFile(options.output), let station = options.files.first(where: StreamLocation.isStation) {
            // A station arrives in real time; a render to a file runs as fast as it can, on the frame clock.
            throw UsageError("play: \(station) is a live stream, which plays in real time: not with --output wav or null")
        }
        options.scenario = try ScenarioOptions.parse(parsed)
        options.book = try BookPlayOptions.parse(parsed)
        return options
    }

    /// `--device snapcast:STREAM`: a snapserver's pipe source (`SnapcastStream`).
    static let snapcastPrefix = "snapcast:"

    private static func rendersToFile(_ output: PlaybackEngine.Output) -> Bool {
        switch output {
        case .wav, .null: true
        default: false
        }
    }

    public static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            writeStandardOutput(help + "\n")
            return 0
        }
        var options: Options
        do { options = try parse(arguments) } catch {
            writeStandardError("interlude \(error.message)\n")
            return 2
        }
        options.files = resolvingCueSheets(resolvingPlaylists(options.files), asBook: options.book.forced)
        guard !options.files.isEmpty else {
            writeStandardError("interlude: nothing to play\n")
            return 1
        }
        return HeadlessPlayer(options: options).run()
    }

    /// A playlist given to play (M3U, M3U8, PLS) stands for what it names,
    /// files and stations' URLs alike; each entry that cannot be played is
    /// named on a line of its own and left out, as is a playlist that cannot
    /// be read.
    static func resolvingPlaylists(_ files: [String]) -> [String] {
        files.flatMap { path -> [String] in
            guard PlaylistFile.isPlaylist(path), !StreamLocation.isStation(path) else { return [path] }
            let load: PlaylistLoad
            do throws(PlaylistFile.Failure) { load = try PlaylistFile.load(path) } catch let failure {
                writeStandardError("interlude: \(failure.description) (skipped)\n")
                return []
            }
            for missing in load.missing { writeStandardError("interlude: \(path): \(missing) is missing (skipped)\n") }
            for refused in load.refused { writeStandardError("interlude: \(path): \(refused) (skipped)\n") }
            return load.entries.map(\.path)
        }
    }

    /// A cue sheet given to play is music: its tracks, each a queue entry
    /// (`SHEET.cue#N`, see `CueTrackPath`). With `--book` it stands for the
    /// audio file it names, a book whose chapters are the sheet's tracks (as
    /// naming the audio file itself does: the sheet is found beside it). One
    /// that cannot be used is reported in one line naming it and left out,
    /// and the rest plays.
    static func resolvingCueSheets(_ files: [String], asBook: Bool) -> [String] {
        files.flatMap { path -> [String] in
            guard path.lowercased().hasSuffix(".cue") else { return [path] }
            if asBook {
                switch FileChapters.audioFile(ofCueSheet: path) {
                case .success(let audio): return [audio]
                case .failure(let problem):
                    writeStandardError("interlude: \(problem.message) (skipped)\n")
                    return []
                }
            }
            switch CueTrack.tracks(ofSheet: path) {
            case .success(let tracks): return tracks.map(\.path.path)
            case .failure(let problem):
                writeStandardError("interlude: \(problem.message) (skipped)\n")
                return []
            }
        }
    }
}
