import Alarms
import AudioSession

/// Everything the player reports, typed: the one stream every front end
/// receives (the `--events json` printer, the screen's event log, and next
/// the control socket and MPRIS). Positions and durations are seconds, in the
/// time the listener hears (a book's own time for a book).
///
/// Text is made only at the edges: `name` and `fields` give each event's
/// printed shape once, for the JSON printer and the log pane alike.
public enum PlayerEvent: Sendable, Equatable {
    // MARK: The engine

    case trackStarted(index: Int, path: String)
    case trackEnded(index: Int, path: String)
    case underrun(UnderrunCause)
    /// The queue played to its end.
    case finished(underruns: Int)
    /// A problem the user should see, as one sentence.
    case error(String)
    /// A line to say that is no problem: what the player did by itself
    /// (a library index built because there was none yet), as one sentence.
    case notice(String)

    // MARK: Pause and resume, as carried out on the engine

    /// A pause was asked for at the heard position (it fades from there).
    case pauseRequested(position: Double)
    /// The pause took effect at `position`.
    case paused(position: Double)
    case resumeRequested(ResumeTrigger)
    case resumed(ResumePlace)
    case ducked(gain: Double)
    case unducked
    /// The single attempt after a suspended session's interruption, in `delay` seconds.
    case resumeScheduled(delay: Double)
    /// Waiting for the secondary-audio hint to clear.
    case resumePostponed
    case resumeFailed(reason: String)
    case playRefused(reason: String)
    /// The interruption ended without `shouldResume`: paused until the user plays.
    case stayPaused
    /// A move in the queue (a seek, a chapter, a track chosen).
    case jump(index: Int, offset: Double, whilePaused: Bool)

    // MARK: The session's notifications

    case interruption(InterruptionNotification)
    case ducking(DuckingNotification)
    case secondaryAudioHint(SilenceSecondaryAudioHintNotification.Kind)

    // MARK: Alarms

    case alarmRinging([AlarmID])
    case alarmJoined(AlarmID)
    /// An alarm rang after its time, within the grace window: how late and why.
    case alarmLate(LateRing)
    case alarmEnded(RingingEnd)
    case alarmAdded(AlarmID, AlarmAddition)
    case alarmEdited(AlarmID, schedule: String)
    /// The wake armed for the next enabled alarm: `at` (wall seconds) when the
    /// system wakes the computer for it, else nil and why it rings only while
    /// the computer is awake (no user manager, no permission).
    case alarmWake(at: Int64?, reason: String?)
    /// The alarm's own sound (`--sound`: a file, folder, playlist, book or
    /// station) did not open, or gave no sound for 3 s: the built-in tone rings
    /// instead, and `reason` says why.
    case alarmSoundFallback(AlarmID, sound: String, reason: String)

    // MARK: The player's own actions and simulations

    case notification
    case callStarted
    case callEnded
    /// The session was suspended without stopping the process (the testing key).
    case suspended
    /// Ctrl-Z: the process is about to stop.
    case suspending
    case continued
    case deviceLostSimulated
    case enqueued(count: Int)
    /// Shuffle or repeat changed (`repeatMode`: off, all, one).
    case orderChanged(shuffle: Bool, repeatMode: String)
    /// A playlist was loaded into the queue (`missing`: files it names that are not there) or the queue saved as one.
    case playlistLoaded(path: String, count: Int, missing: Int)
    case queueSaved(path: String, count: Int)
    case queueEnded
    case speed(Double)
    /// Spoken audio's settings now: pauses trimmed (`off`, `gentle`, `medium`,
    /// `strong`) and voices levelled (`off` or the target, `-18`).
    case spokenAudio(trimSilence: String, voiceBoost: String)
    /// Listening time the trimmer saved: in what this run heard, in the book
    /// or episode all runs together, and in every book and episode.
    case timeSaved(seconds: Double, book: Double?, total: Double?)
    case volume(Double)
    case wallClockChanged
    /// The run was ended (quit, a signal, a switch to other playback).
    case stopped
    case summary(automaticResumes: Int)
    /// The system is about to sleep (logind's `PrepareForSleep(true)`).
    case systemWillSleep
    /// The system woke up (`PrepareForSleep(false)`).
    case systemDidWake

    // MARK: Streams

    /// A station's audio began on a connection (the first, or after a drop):
    /// `station` is its `icy-name`, `codec` what it sends.
    case streamConnected(url: String, station: String?, codec: String)
    /// The station's title changed (ICY `StreamTitle`): the now-playing title.
    case streamTitle(url: String, station: String?, title: String)
    /// A station's time-shift said something: its buffer is full and drops
    /// its oldest audio, a resume moved on or went live.
    case timeShift(url: String, message: String)
    /// A favourite station added by its URL alone took the name its server gave (`icy-name`).
    case stationNamed(url: String, name: String)

    // MARK: Books

    case bookOpened(BookOpening)
    case bookSeek(BookSeek)
    case bookSeekRefused(reason: String)
    case bookmarkAdded(id: Int, position: Double)
    case positionSaved(position: Double)
    case sleepTimerSet(setting: String, remaining: Double?)
    /// Nil reason: the user turned it off.
    case sleepTimerOff(reason: SleepTimerOffReason?)
    case sleepFadeStarted(fade: Double)
    case sleepTimerExpired
}

public enum UnderrunCause: String, Sendable, Equatable {
    /// The device ran dry (an ALSA xrun).
    case xrun
    /// The decoder fell behind: the ring had nothing to give.
    case starved
}

public enum ResumeTrigger: String, Sendable, Equatable {
    case user
    case automatic
}

/// Where playback went on from.
public enum ResumePlace: Sendable, Equatable {
    /// The stop position minus `rewind` (smart rewind).
    case rewound(position: Double, rewind: Double)
    /// A pause still fading out was turned back up where it was: nothing repeated.
    case fadeCancelled(position: Double)
    /// A jump asked for while paused.
    case jumped(index: Int, offset: Double)
}

public enum AlarmAddition: Sendable, Equatable {
    /// Relative, from the alarm prompt.
    case inSeconds(Int)
    /// What the user typed: a clock time, a date or a delay.
    case at(String)
}

public enum SleepTimerOffReason: String, Sendable, Equatable {
    /// Played during the sleep fade or after it.
    case resumed
}

public struct BookOpening: Sendable, Equatable {
    public var path: String
    public var title: String
    public var author: String?
    public var duration: Double
    public var chapters: Int
    public var position: Double
    public var saved: Double
    public var rewind: Double
    public var chapter: Int
    public var chapterTitle: String
    public var speed: Double

    public init(path: String, title: String, author: String?, duration: Double, chapters: Int, position: Double,
                saved: Double, rewind: Double, chapter: Int, chapterTitle: String, speed: Double) {
        self.path = path
        self.title = title
        self.author = author
        self.duration = duration
        self.chapters = chapters
        self.position = position
        self.saved = saved
        self.rewind = rewind
        self.chapter = chapter
        self.chapterTitle = chapterTitle
        self.speed = speed
    }
}

public struct BookSeek: Sendable, Equatable {
    public enum Reason: String, Sendable, Equatable {
        case nextChapter, previousChapter, skipBack, skipForward, seekBack, seekForward, chapter, bookmark
    }

    public var reason: Reason
    public var from: Double
    public var position: Double
    public var chapter: Int
    public var chapterTitle: String

    public init(reason: Reason, from: Double, position: Double, chapter: Int, chapterTitle: String) {
        self.reason = reason
        self.from = from
        self.position = position
        self.chapter = chapter
        self.chapterTitle = chapterTitle
    }
}

/// What the alarms pane and the socket's `alarm list` say of an enabled
/// alarm's wake of the computer, from the last `alarmWake` event.
public enum AlarmWakeLabel {
    public static let wakes = "wakes the computer"

    public static func awakeOnly(_ reason: String) -> String { "rings only while the computer is awake (\(reason))" }

    /// The label an `alarmWake` event gives.
    public static func label(at: Int64?, reason: String?) -> String {
        at != nil ? wakes : awakeOnly(reason ?? "")
    }
}
