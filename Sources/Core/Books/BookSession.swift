import LoopIO
import LibraryIO
import AudioEngine
import AudioSession
import Books
import InterludeCore
import PlayerModel
import SpokenAudio

/// A book played by the player runtime: where it starts (the saved place with
/// smart rewind, or a bookmark), the position saved atomically while it plays,
/// on pause and on quit, chapter and skip commands, and the sleep timer.
///
/// Book positions come from what the listener heard: the runtime's queue is
/// the book's files in order, so the heard queue entry and the offset into
/// it give the file and the offset in the book.
package final class BookSession {
    /// How often the position is saved while the book plays, in real time
    /// (a `kill -9` loses at most this much, plus a poll of the loop).
    package static let saveInterval = 1.0

    package let book: Book
    package let events: PlayerEventStream
    package let store: BookStateStore
    package let navigation: BookNavigation
    package private(set) var state: BookState
    /// Where playback starts, in book time (after smart rewind).
    package let startPosition: Int
    package let savedPosition: Int
    private let sleepSetting: SleepTimer.Setting?
    /// The player that plays the book, and owns this session while it does.
    private weak var runtime: PlayerRuntime?
    private var sleepTimer: SleepTimer?
    private var lastSave = -Double.infinity
    private var wasPlaying = false
    /// The speed last seen: a change re-plans an end-of-chapter sleep timer.
    private var speed = PlaybackSpeed.normal
    /// A seek not yet heard: saves use it until playback gets there.
    private var pendingSeek: Int?
    private let wallClock = SystemClock()
    /// A place near the start never overwrites real progress (`ProgressGuard`).
    private var progressGuard = ProgressGuard()
    /// The start was the listener's choice (a bookmark, a book heard to its end started over).
    private var startChosen = false
    /// Where the speed is kept besides the book's own state: a podcast's, for
    /// its episodes not played yet (`EpisodeOpener.podcastSpeed`).
    package var sharedSpeed: BookID?
    private var sharedSpeedSaved: Double?
    /// The listener chose the spoken-audio settings (`--trim-silence`, a key, the
    /// socket): they are remembered with the book (and its podcast); else the
    /// book follows its own remembered ones or the config's default.
    private var trimChosen = false
    private var sharedTrimSaved: TrimStrength?
    private var sharedBoostSaved: VoiceBoost?
    private var boostChosen = false
    /// The engine's time saved when last added to the state files, and the
    /// total over every book and episode as last written.
    private var savedFramesCounted = 0
    private var totalSavedMilliseconds = 0
    /// Where the total time saved is kept: a state beside the books'.
    package static let timeSavedTotal = BookID(absolutePath: "spoken:time-saved")

    /// Loads the book's state and decides where to start. Problems with the
    /// state file (damaged, unreadable) are reported and the book starts over.
    package init(book: Book, options: BookPlayOptions, smartRewind: SmartRewind, events: PlayerEventStream,
         store: BookStateStore) throws(UsageError) {
        self.book = book
        self.events = events
        self.store = store
        sleepSetting = options.sleep
        var navigation = BookNavigation()
        if let skip = options.skipSeconds {
            let milliseconds = Int((skip * 1000).rounded())
            navigation = BookNavigation(skipBackMilliseconds: milliseconds, skipForwardMilliseconds: milliseconds)
        }
        self.navigation = navigation
        let now = wallClock.wallNow
        let loaded = store.load(book.id, now: now)
        if let problem = loaded.problem { events.error(problem) }
        state = loaded.state
        for path in book.skippedFiles { events.error("\(path): cannot be decoded; the book plays without it") }
        for problem in book.tagProblems + book.lengthProblems { events.error(problem) }

        if let number = options.bookmark {
            guard let mark = state.bookmark(id: number) else {
                throw UsageError("play: \(book.title) has no bookmark \(number) (see 'interlude bookmark list')")
            }
            savedPosition = book.clamp(mark.positionMilliseconds)
            startPosition = savedPosition
            startChosen = true
        } else {
            var saved = loaded.state.resumePosition(in: book)
            // A book heard to its end starts over.
            if saved > 0 && book.timeLeft(from: saved) < 2_000 {
                saved = 0
                startChosen = true
            }
            savedPosition = saved
            let away = max(0, (now - loaded.state.updated).seconds)
            let inChapter = Double(saved - book.chapter(at: saved).startMilliseconds) / 1000
            let rewind = saved > 0 ? smartRewind.rewind(stoppedFor: away, timeInChapter: inChapter) : 0
            startPosition = max(0, saved - Int((rewind * 1000).rounded()))
        }
    }

    /// The files the runtime plays, in book order.
    package var paths: [String] { book.files.map(\.path) }

    /// Before the book's engine plays (at start, or as a switch opens the
    /// book): start at the place, announce the book, save, set the sleep timer.
    package func begin(with runtime: PlayerRuntime) {
        self.runtime = runtime
        runtime.book = self
        let location = book.location(at: startPosition)
        if startPosition > 0 {
            runtime.start(atQueueIndex: location.fileIndex, seconds: Double(location.offsetMilliseconds) / 1000)
        }
        let chapter = book.chapter(at: startPosition)
        events.emit(.bookOpened(BookOpening(
            path: book.path, title: book.title, author: book.author, duration: seconds(book.durationMilliseconds),
            chapters: book.chapters.count, position: seconds(startPosition), saved: seconds(savedPosition),
            rewind: seconds(savedPosition - startPosition), chapter: chapter.index, chapterTitle: chapter.title,
            speed: runtime.engine.speed.value)))
        speed = runtime.engine.speed
        applySpokenSettings(runtime)
        save(at: startPosition, chosen: startChosen)
        runtime.controller.chapterStartFrame = { [unowned self] frame in chapterStartFrame(containing: frame) }
        runtime.controller.bookSeconds = { [unowned self] frame in bookSeconds(atStreamFrame: frame) }
        if let sleepSetting { setSleepTimer(sleepSetting, playing: true) }
        wasPlaying = true
    }

    // MARK: Sleep timer

    /// Sets the sleep timer (nil turns it off); the UI offers `SleepTimer.Setting.choices`.
    package func setSleepTimer(_ setting: SleepTimer.Setting?, playing: Bool? = nil) {
        guard let runtime else { return }
        guard let setting else {
            sleepTimer?.cancel()
            sleepTimer = nil
            events.emit(.sleepTimerOff(reason: nil))
            return
        }
        let timer = sleepTimer ?? SleepTimer(clock: runtime.clock)
        timer.onFadeOut = { [unowned self] fade in
            events.emit(.sleepFadeStarted(fade: fade.seconds))
            // The end of a chapter is a frame: the fade ends on it, whenever this turn of the loop came.
            if setting == .endOfChapter, let end = chapterEndFrame() {
                self.runtime?.controller.pause.aimNextPause(endingAtStreamFrame: end)
            }
            // The listener's own pause: nothing resumes it but the listener.
            self.runtime?.player.pause(fade: fade)
            self.runtime?.controller.pause.cancelPauseAim()
        }
        timer.onExpired = { [unowned self] in events.emit(.sleepTimerExpired) }
        sleepTimer = timer
        timer.start(setting, chapterRemaining: chapterRemaining(from: currentPosition), playing: playing ?? runtime.isPlaying)
        events.emit(.sleepTimerSet(setting: setting.description, remaining: timer.remaining?.seconds))
    }

    /// Listening time until the sleep timer pauses, for the status line.
    package var sleepRemaining: Duration? { sleepTimer?.remaining }

    /// The sleep timer's setting while it is set and has not run out.
    package var sleepTimerSetting: SleepTimer.Setting? { sleepTimer?.remaining == nil ? nil : sleepTimer?.setting }

    // MARK: Bookmarks

    /// Marks the place heard now, with an optional note, and saves it.
    @discardableResult
    package func addBookmark(note: String?) -> Bookmark {
        let position = currentPosition
        var added: Bookmark?
        update { [wallClock] state in added = state.addBookmark(at: position, note: note, now: wallClock.wallNow) }
        let mark = added!
        events.emit(.bookmarkAdded(id: mark.id, position: seconds(mark.positionMilliseconds)))
        return mark
    }

    /// Plays from bookmark `id`; false when there is none.
    @discardableResult
    package func jump(toBookmark id: Int) -> Bool {
        // Read again: `interlude bookmark add` may have added it while the book plays.
        let loaded = store.load(book.id, now: wallClock.wallNow)
        guard let mark = (loaded.problem == nil ? loaded.state : state).bookmark(id: id) else { return false }
        seek(to: mark.positionMilliseconds, reason: .bookmark)
        return true
    }

    package func deleteBookmark(id: Int) -> Bool {
        var deleted = false
        update { [wallClock] state in deleted = state.deleteBookmark(id: id, now: wallClock.wallNow) }
        return deleted
    }

    // MARK: Position

    // MARK: Spoken audio

    /// The book's trimming and levelling: what `--trim-silence`/`--voice-boost`
    /// gave (remembered), else the book's own, else (an episode) its
    /// podcast's, else the config's default for books or for podcasts.
    private func applySpokenSettings(_ runtime: PlayerRuntime) {
        let isEpisode = sharedSpeed != nil
        let shared = sharedSpeed.map { store.load($0, now: wallClock.wallNow) }.flatMap { $0.problem == nil ? $0.state : nil }
        let settings = runtime.configuration.settings
        trimChosen = runtime.configuration.trimSilence != nil
        boostChosen = runtime.configuration.voiceBoost != nil
        let trim = runtime.configuration.trimSilence ?? state.trimSilence ?? shared?.trimSilence
            ?? (isEpisode ? settings.podcastTrimSilence : settings.bookTrimSilence) ?? .off
        let boost = runtime.configuration.voiceBoost ?? state.voiceBoost ?? shared?.voiceBoost
            ?? (isEpisode ? settings.podcastVoiceBoost : settings.bookVoiceBoost) ?? .off
        runtime.engine.setTrimStrength(trim)
        runtime.engine.setVoiceBoost(boost)
        savedFramesCounted = runtime.engine.trimSavedFrames
        totalSavedMilliseconds = store.load(Self.timeSavedTotal, now: wallClock.wallNow).state.timeSavedMilliseconds
        if trim.isOn || boost.isOn { runtime.emitSpokenAudio() }
    }

    /// The listener changed a setting: remembered with the book (and its podcast) now.
    package func spokenSettingsChanged(trim: Bool, boost: Bool) {
        trimChosen = trimChosen || trim
        boostChosen = boostChosen || boost
        save()
    }

    /// Seconds saved by trimming in this book (all runs) and in every book and episode.
    package var timeSavedTotals: (book: Double, total: Double) {
        let unsaved = unsavedTrimMilliseconds
        return (seconds(state.timeSavedMilliseconds + unsaved), seconds(totalSavedMilliseconds + unsaved))
    }

    /// Time saved since the last save, in milliseconds.
    private var unsavedTrimMilliseconds: Int {
        guard let runtime else { return 0 }
        let frames = max(0, runtime.engine.trimSavedFrames - savedFramesCounted)
        return Int((runtime.format.seconds(forFrames: frames) * 1000).rounded())
    }

    /// The speed the book plays at now (1.0 before it starts).
    package var speedValue: Double { runtime?.engine.speed.value ?? state.speed }

    /// The chapter the listener is in.
    package var currentChapter: BookChapter { book.chapter(at: currentPosition) }

    /// Book time left from what was heard.
    package var timeLeft: Int { book.timeLeft(from: currentPosition) }

    /// What the listener has heard up to, in book time.
    package var heardPosition: Int? {
        guard let runtime, let (track, offset) = runtime.engine.heardTrack else { return nil }
        return place(track: track, offset: offset).map { $0.file.startMilliseconds + Int(($0.seconds * 1000).rounded()) }
    }

    /// Stream frame `frame` in book time (seconds, to the frame), for events.
    package func bookSeconds(atStreamFrame frame: Int) -> Double? {
        guard let runtime, let track = runtime.engine.feeder.track(containing: frame),
              let (file, seconds) = place(track: track, offset: frame - track.startFrame) else { return nil }
        return Double(file.startMilliseconds) / 1000 + seconds
    }

    /// The book file of queue track `track`, and `offset` frames into it in
    /// seconds (within the file's length).
    private func place(track: TrackFeeder.Track, offset: Int) -> (file: BookFile, seconds: Double)? {
        guard let runtime, book.files.indices.contains(track.index) else { return nil }
        let file = book.files[track.index]
        return (file, min(runtime.format.seconds(forFrames: max(0, offset)), Double(file.durationMilliseconds) / 1000))
    }

    /// The stream frame where the chapter that holds stream frame `frame` starts,
    /// within that frame's track (smart rewind stops there).
    package func chapterStartFrame(containing frame: Int) -> Int? {
        guard let runtime, let track = runtime.engine.feeder.track(containing: frame),
              let (file, seconds) = place(track: track, offset: frame - track.startFrame) else { return nil }
        let chapter = book.chapter(at: file.startMilliseconds + Int((seconds * 1000).rounded()))
        let intoFile = max(0, chapter.startMilliseconds - file.startMilliseconds)
        return track.startFrame + runtime.format.frames(forSeconds: Double(intoFile) / 1000)
    }

    /// The stream frame where the chapter heard now ends, when it ends in the
    /// file heard now (a file's end: where its decoder ended, once known).
    private func chapterEndFrame() -> Int? {
        guard let runtime, let (track, offset) = runtime.engine.heardTrack,
              let (file, seconds) = place(track: track, offset: offset) else { return nil }
        let chapter = book.chapter(at: file.startMilliseconds + Int((seconds * 1000).rounded()))
        let intoFile = chapter.endMilliseconds - file.startMilliseconds
        guard chapter.fileIndex == track.index, intoFile > 0, intoFile <= file.durationMilliseconds else { return nil }
        if intoFile == file.durationMilliseconds, let end = track.endFrame { return end }
        return track.startFrame + runtime.format.frames(forSeconds: Double(intoFile) / 1000)
    }

    /// The place to keep: a seek not yet carried out, else what was heard.
    package var currentPosition: Int { pendingSeek ?? heardPosition ?? startPosition }

    /// Saves the position atomically; a failure is reported once. `chosen`:
    /// the listener put playback there (a seek), which may go back to the
    /// start; else a place near the start does not replace real progress.
    package func save(at position: Int? = nil, chosen: Bool = false) {
        let position = position ?? currentPosition
        lastSave = monotonicSeconds()
        let speed = runtime?.engine.speed.value
        let trim = trimChosen ? runtime?.engine.trimStrength : nil
        let boost = boostChosen ? runtime?.engine.voiceBoost : nil
        // What the trimmer saved since the last save: added to the book's and the total's, once.
        let savedMilliseconds = unsavedTrimMilliseconds
        if let runtime, savedMilliseconds > 0 {
            savedFramesCounted += runtime.format.frames(forSeconds: Double(savedMilliseconds) / 1000)
        }
        let saved = update { [book, wallClock] state in
            if progressGuard.admits(position, over: state.positionMilliseconds, chosen: chosen) {
                state.setPosition(position, in: book, now: wallClock.wallNow)
            }
            if let speed { state.speed = speed }
            if let trim { state.trimSilence = trim }
            if let boost { state.voiceBoost = boost }
            state.timeSavedMilliseconds = min(BookStateFormat.positionRange.range.upperBound,
                                              state.timeSavedMilliseconds + savedMilliseconds)
        }
        if savedMilliseconds > 0 {
            let total = store.update(Self.timeSavedTotal, now: wallClock.wallNow, fallback: .start) {
                $0.timeSavedMilliseconds = min(BookStateFormat.positionRange.range.upperBound, $0.timeSavedMilliseconds + savedMilliseconds)
            }
            if total.failure == nil { totalSavedMilliseconds = total.state.timeSavedMilliseconds }
        }
        if let sharedSpeed, let speed, speed != sharedSpeedSaved {
            sharedSpeedSaved = speed
            _ = store.update(sharedSpeed, now: wallClock.wallNow, fallback: .start) { $0.speed = speed }
        }
        if let sharedSpeed, (trim != nil && trim != sharedTrimSaved) || (boost != nil && boost != sharedBoostSaved) {
            sharedTrimSaved = trim
            sharedBoostSaved = boost
            _ = store.update(sharedSpeed, now: wallClock.wallNow, fallback: .start) { state in
                if let trim { state.trimSilence = trim }
                if let boost { state.voiceBoost = boost }
            }
        }
        // Only what is on disk: a full or read-only state folder saves nothing.
        if saved { events.emit(.positionSaved(position: seconds(state.positionMilliseconds))) }
    }

    /// Changes the state file: read, change, write, under its lock
    /// (`BookStateStore.update`), because `interlude bookmark` or another
    /// player may have changed it while the book plays; a damaged file is set
    /// aside and this run's state kept.
    /// True when the file was written. A failure is reported once per outage:
    /// once saving works again (room was made), the next failure is news.
    @discardableResult
    private func update(_ change: (inout BookState) -> Void) -> Bool {
        let updated = store.update(book.id, now: wallClock.wallNow, fallback: state) { [book] next in
            change(&next)
            next.path = book.path
        }
        if let problem = updated.problem { events.error(problem) }
        if let error = updated.failure {
            if !reportedSaveFailure { events.error("\(error.description); the book's position is not being kept") }
            reportedSaveFailure = true
        } else {
            reportedSaveFailure = false
        }
        state = updated.state
        return updated.failure == nil
    }

    private var reportedSaveFailure = false

    // MARK: The loop

    /// After every turn of the runtime's loop: the sleep timer follows play
    /// and pause, and the position is saved every `saveInterval` while playing.
    package func tick() {
        guard let runtime else { return }
        let playing = runtime.isPlaying
        if let pending = pendingSeek, playing, let heard = heardPosition, heard >= pending, heard - pending < 5_000 {
            pendingSeek = nil
        }
        if runtime.engine.speed != speed {
            speed = runtime.engine.speed
            sleepTimer?.positionChanged(chapterRemaining: chapterRemaining(from: currentPosition))
            save()
        }
        if playing != wasPlaying {
            wasPlaying = playing
            if playing {
                let winding = sleepTimer.map { $0.phase == .fading || $0.phase == .expired } ?? false
                sleepTimer?.playbackResumed(chapterRemaining: chapterRemaining(from: currentPosition))
                if winding, sleepTimer?.phase == .off {
                    // Played during the fade or after it: the listener is awake.
                    events.emit(.sleepTimerOff(reason: .resumed))
                }
            } else {
                sleepTimer?.playbackPaused()
            }
        }
        if playing && monotonicSeconds() - lastSave >= Self.saveInterval { save() }
    }

    /// What the listener heard happen: a pause that took effect is saved at once.
    package func playbackEvent(_ event: PlaybackEvent) {
        if case .mediaStopped = event { save() }
    }

    /// The run ends (quit, a signal, the end of the book).
    package func finish() {
        save()
    }

    /// Other playback replaces the book: its place is kept, its sleep timer ends.
    package func close() {
        save()
        sleepTimer?.cancel()
        sleepTimer = nil
    }

    // MARK: Commands

    // Each command reads the heard position once: the target and the event's
    // `from` come from the same reading, as the heard position moves on while
    // the command runs (a second reading was 3 ms later under load).
    package func nextChapter() {
        let from = currentPosition
        guard let chapter = navigation.nextChapter(in: book, from: from) else {
            events.emit(.bookSeekRefused(reason: "in the last chapter"))
            return
        }
        seek(to: chapter.startMilliseconds, from: from, reason: .nextChapter)
    }

    package func previousChapter() {
        let from = currentPosition
        seek(to: navigation.previousChapter(in: book, from: from).startMilliseconds, from: from, reason: .previousChapter)
    }

    package func skipBack() {
        let from = currentPosition
        seek(to: navigation.skipBack(in: book, from: from), from: from, reason: .skipBack)
    }

    package func skipForward() {
        let from = currentPosition
        seek(to: navigation.skipForward(in: book, from: from), from: from, reason: .skipForward)
    }

    /// Moves to a book position, playing or paused as before; `from` is the
    /// reading of the heard position the target was computed from, if any.
    package func seek(to position: Int, from reading: Int? = nil, reason: BookSeek.Reason) {
        guard let runtime else { return }
        let from = reading ?? currentPosition
        let target = book.clamp(position)
        let location = book.location(at: target)
        pendingSeek = target
        runtime.jump(toQueueIndex: location.fileIndex, seconds: Double(location.offsetMilliseconds) / 1000, play: false)
        let chapter = book.chapter(at: target)
        events.emit(.bookSeek(BookSeek(reason: reason, from: seconds(from), position: seconds(target), chapter: chapter.index,
                                       chapterTitle: chapter.title)))
        sleepTimer?.positionChanged(chapterRemaining: chapterRemaining(from: target))
        save(at: target, chosen: true)
    }

    /// Listening time to the end of the chapter at `position` (book time over
    /// the speed). A pause fades from what is heard, not from what was last
    /// written (the writer drops the device's queue), so on ALSA as on the
    /// file sinks the fade ends at the chapter's end.
    private func chapterRemaining(from position: Int) -> Duration {
        let listening = Double(book.timeLeftInChapter(from: position)) / (runtime?.engine.speed.value ?? 1)
        return max(.zero, .milliseconds(Int64(listening.rounded())))
    }

    private func seconds(_ milliseconds: Int) -> Double { Double(milliseconds) / 1000 }
}

extension BookSession {
    package enum Preparation {
        /// The arguments are music: play them as a queue.
        case music
        case book(BookSession)
        /// Reported already; the exit status.
        case failed(Int32)
    }

    /// A session for `book`, with the runtime's configuration set for spoken
    /// audio and, unless a speed was given, the speed the book was last played at.
    package static func make(_ book: Book, options: BookPlayOptions, speedGiven: Bool, store: BookStateStore,
                     configuration: inout PlayerRuntime.Configuration, events: PlayerEventStream) throws(UsageError) -> BookSession {
        configuration.scenario.spoken = true
        let session = try BookSession(
            book: book, options: options,
            smartRewind: SmartRewind(maxRewindSeconds: configuration.scenario.effectiveSmartRewind),
            events: events, store: store)
        if !speedGiven { configuration.speed = PlaybackSpeed(session.state.speed) ?? .normal }
        return session
    }
}
