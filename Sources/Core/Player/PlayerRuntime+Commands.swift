import Streams
import LoopIO
import LibraryIO
import Alarms
import AudioEngine
import AudioSession
import Books
import InterludeCore
import PlayerModel
import Podcasts

/// The one place player commands are carried out, whichever front end sent
/// them (keys, standard input, next the control socket): each answers with
/// what the screen shows about it, or why it was refused.
extension PlayerRuntime {
    @discardableResult
    package func perform(_ command: PlayerCommand) -> CommandResult {
        switch command {
        case .play: return play()
        case .pause: player.pause()
        case .togglePlayPause:
            if player.isPlaying { player.pause() } else { return play() }
        case .next: next()
        case .previous: previous()
        case .seek(let seconds):
            if let book {
                // Across the book's files, in book time.
                book.seek(to: book.currentPosition + Int((seconds * 1000).rounded()),
                          reason: seconds < 0 ? .seekBack : .seekForward)
            } else {
                if let current, StreamLocation.isStation(current.path) { return seekStation(bySeconds: seconds) }
                seek(bySeconds: seconds)
            }
        case .goLive: return goLive()
        case .setVolume(let volume): changeVolume { _ in volume }
        case .toggleMute: toggleMute()
        case .volumeUp: changeVolume { $0 + CommandTable.volumeStep }
        case .volumeDown: changeVolume { $0 - CommandTable.volumeStep }
        case .speedUp: return speedResult(setSpeed(engine.speed.faster))
        case .speedDown: return speedResult(setSpeed(engine.speed.slower))
        case .setSpeed(let value):
            guard value.isFinite, let speed = PlaybackSpeed((value * 20).rounded() / 20) else {
                return .refused(reason: .problem(PlaybackSpeed.rejection(String(value))))
            }
            return speedResult(setSpeed(speed))
        case .setTrimSilence(let strength): return setTrimSilence(strength)
        case .setVoiceBoost(let boost): return setVoiceBoost(boost)
        case .playQueue(let given, _) where frameClock != nil && given.contains(where: StreamLocation.isStation),
             .enqueue(let given) where frameClock != nil && given.contains(where: StreamLocation.isStation):
            // A render on the frame clock runs as fast as it can; a station arrives in real time.
            return .refused(reason: .problem("a live stream plays in real time, not in a render to a file"))
        case .playQueue(let given, let chosen):
            let album = Self.expandingCueSheets(given, startAt: chosen)
            if album.paths.isEmpty, let problem = album.problems.first { return .refused(reason: .problem(problem)) }
            for problem in album.problems { events.error(problem) }
            let (paths, index) = (album.paths, album.startAt)
            if book != nil { return requestSwitch(.music(paths, startAt: index)) }
            playQueue(paths, startAt: index)
        case .enqueue(let given):
            guard book == nil else { return .refused(reason: .enqueueDuringBook) }
            let album = Self.expandingCueSheets(given)
            if album.paths.isEmpty, let problem = album.problems.first { return .refused(reason: .problem(problem)) }
            for problem in album.problems { events.error(problem) }
            let paths = album.paths
            enqueue(paths)
            return .done(report: .queued(count: paths.count))
        case .stop: stop()
        case .clearQueue:
            guard book == nil else { return .refused(reason: .clearQueueDuringBook) }
            return .done(report: .queueCleared(count: clearQueue()))
        case .editQueue(let edit):
            guard book == nil else { return .refused(reason: .clearQueueDuringBook) }
            let result = editQueue(edit)
            if case .drop(_, let count) = edit, result == .done { return .done(report: .queueRemoved(count: count)) }
            return result
        case .openBook(let path): return openBook(path)
        case .open(let path, let kind): return open(path, as: kind)
        case .playEpisode(let podcast, let episode): return playEpisode(podcast, episode)
        case .toggleShuffle, .cycleRepeat, .saveQueue, .loadPlaylist:
            guard book == nil else { return .refused(reason: .playOrderDuringBook) }
            return performPlayOrder(command)
        case .fireTestAlarm:
            testAlarms.insert(addAlarm(after: .zero, label: "test alarm").id)
        case .addAlarm(let seconds):
            let alarm = addAlarm(after: .seconds(seconds), label: "in \(seconds) s")
            testAlarms.insert(alarm.id)
            events.emit(.alarmAdded(alarm.id, .inSeconds(seconds)))
            return .done(report: alarmSet(alarm.id))
        case .addAlarmSchedule(let text): return addAlarm(text)
        case .editAlarm(let id, let text): return editAlarm(AlarmID(rawValue: id), text)
        case .setAlarmEnabled(let id, let enabled): alarms.setEnabled(AlarmID(rawValue: id), enabled)
        case .toggleAlarm(let id):
            guard let alarm = alarms.alarms.first(where: { $0.id.rawValue == id }) else { return .refused(reason: .alarmGone(id: id)) }
            alarms.setEnabled(alarm.id, !alarm.isEnabled)
        case .deleteAlarm(let id): alarms.remove(AlarmID(rawValue: id))
        case .skipAlarm(let id):
            if alarms.skipNext(AlarmID(rawValue: id)) == nil {
                events.error("alarm-skip: alarm \(id) is not an enabled repeating alarm (one that rings once can be removed)")
            }
        case .snoozeAlarm: snoozeAlarm()
        case .dismissAlarm: dismissAlarm()
        case .toggleSessionSuspended: toggleSessionSuspended()
        case .toggleCall: toggleCall()
        case .notificationChime: notificationChime()
        case .simulateDeviceLoss: simulateDeviceLoss()
        case .addStation, .renameStation, .removeStation, .playStation, .nameStation: return performStation(command)
        case .refreshPodcasts: return podcasts.refresh()
        case .addPodcast(let url): return podcasts.subscribe(url)
        case .removePodcast(let podcast): return podcasts.unsubscribe(podcast)
        case .importPodcasts(let path): return podcasts.importOPML(path)
        case .downloadEpisode(let podcast, let episode): return podcasts.download(podcast: podcast, episode: episode)
        case .markEpisode(let podcast, let episode, let played):
            return podcasts.mark(podcast: podcast, episode: episode, played: played, playing: book?.book.id)
        case .quit:
            quitRequested = true
            requestStop()
        case .jump(let index, let play):
            guard queue.indices.contains(index) else { return .refused(reason: .problem("no queue entry \(index)")) }
            jump(toQueueIndex: index, seconds: 0, play: play)
        case .alarmsFileChanged: createdScheduler?.fileDidChange()
        case .listPodcasts: podcasts.list()
        case .systemWillSleep: systemWillSleep()
        case .systemDidWake: systemDidWake()
        case .desktopStreamBegan(let stream, let priorityClass, let program):
            if let old = desktopSessions.removeValue(forKey: stream) { endDesktopInterruption(old) }
            desktopSessions[stream] = beginDesktopInterruption(priorityClass, program: program)
        case .desktopStreamEnded(let stream):
            if let session = desktopSessions.removeValue(forKey: stream) { endDesktopInterruption(session) }
        case .chapterNext, .chapterPrevious, .jumpToChapter, .skipBack, .skipForward, .cycleSleepTimer, .addBookmark,
             .jumpToBookmark, .deleteBookmark:
            guard let book else { return .refused(reason: .noBook) }
            return perform(command, book: book)
        }
        return .done
    }

    /// The user's play (`startsPlayback`); a refused play says why (a higher-priority session is active).
    private func play() -> CommandResult {
        // Someone at the keys is awake whatever the system said: a wake-up announcement that never came must not hold play.
        if arbiter.isSleepAnnounced { systemDidWake() }
        // The queue was emptied and filled again (MPD's clear, then add): it plays from its first entry.
        if book == nil, current == nil, !queue.isEmpty { jump(toQueueIndex: 0, seconds: 0, play: false) }
        if case .refused(let reason) = player.play() { return .refused(reason: .problem(reason)) }
        stopRequested = false
        return .done
    }

    private func speedResult(_ problem: String?) -> CommandResult {
        problem.map { .refused(reason: .problem($0)) } ?? .done
    }

    /// The audiobook commands.
    private func perform(_ command: PlayerCommand, book: BookSession) -> CommandResult {
        switch command {
        case .chapterNext: book.nextChapter()
        case .chapterPrevious: book.previousChapter()
        case .jumpToChapter(let index):
            guard book.book.chapters.indices.contains(index) else { return .done }
            book.seek(to: book.book.chapters[index].startMilliseconds, reason: .chapter)
        case .skipBack: book.skipBack()
        case .skipForward: book.skipForward()
        case .cycleSleepTimer:
            let choices = SleepTimer.Setting.choices
            let next: SleepTimer.Setting?
            if let current = book.sleepTimerSetting, let index = choices.firstIndex(of: current) {
                next = index + 1 < choices.count ? choices[index + 1] : nil
            } else {
                next = choices.first
            }
            book.setSleepTimer(next)
            return .done(report: .sleepTimer(next?.description))
        case .addBookmark(let note):
            let mark = book.addBookmark(note: note)
            return .done(report: .bookmarkAdded(id: mark.id, at: BookTimeText.format(mark.positionMilliseconds)))
        case .jumpToBookmark(let id):
            return book.jump(toBookmark: id) ? .done : .refused(reason: .noBookmark(id: id))
        case .deleteBookmark(let id):
            return book.deleteBookmark(id: id) ? .done(report: .bookmarkDeleted(id: id)) : .refused(reason: .noBookmark(id: id))
        default: break
        }
        return .done
    }

    // MARK: Switching to other playback

    private func openBook(_ path: String) -> CommandResult {
        if isDirectory(path) && !BookOpener.isBook([path], forced: false) {
            return .refused(reason: .notABook(path: path))
        }
        if let book, book.book.path == AbsolutePath.absolute(path) {
            return .refused(reason: .bookPlayingAlready(title: book.book.title))
        }
        // Opened here, so that a path that is no book leaves what plays alone.
        let opened: Book
        do { opened = try BookOpener.open(path) } catch { return .refused(reason: .problem(error.description)) }
        let result = requestSwitch(.book(path, opened))
        guard case .done = result else { return result }
        return .done(report: .openingBook(title: opened.title))
    }

    /// An episode as a book, from its download, else streamed: its length
    /// is the feed's (no request on the loop: the stream's first answer and
    /// the chapters file are `interlude podcast play`'s, before its loop).
    private func playEpisode(_ podcast: String, _ episode: String?) -> CommandResult {
        guard configuration.bookStore != nil else { return .refused(reason: .cannotSwitch) }
        let store = PodcastStore(directories: XDGDirectories(environment: ProcessEnvironment.current()))
        let chosen: EpisodeOpener.Chosen
        switch EpisodeOpener.choose(podcast: podcast, episode: episode, store: store) {
        case .success(let found): chosen = found
        case .failure(let error): return .refused(reason: .problem(error.message))
        }
        if let book, book.book.id == chosen.identity, book.book.path == chosen.download || !StateFile.isReadableFile(chosen.download) {
            return .refused(reason: .bookPlayingAlready(title: book.book.title))
        }
        let opened: Book
        switch EpisodeOpener.book(chosen, network: false) {
        case .success(let made): opened = made
        case .failure(let error): return .refused(reason: .problem(error.message))
        }
        let result = requestSwitch(.book(opened.path, opened))
        guard case .done = result else { return result }
        return .done(report: .openingBook(title: opened.title))
    }

    private func requestSwitch(_ target: PlaybackSwitch) -> CommandResult {
        switchPlayback(to: target)
    }

    // MARK: Alarms from what the user typed

    /// When an alarm rings, from what the user typed: a clock time, a date or a delay.
    private func schedule(_ text: String) throws(AlarmCommandError) -> AlarmSchedule {
        try AlarmInputParser.parseWhen(text.split(separator: " ").map(String.init), now: clock.wallNow,
                                       zone: ZonedTime(timeZone: configuration.alarmTimeZone))
    }

    /// A clock-time, dated or relative alarm from what the user typed.
    private func addAlarm(_ text: String) -> CommandResult {
        do {
            let schedule = try schedule(text)
            let alarm = alarms.add(schedule: schedule) { $0.label = "" }
            events.emit(.alarmAdded(alarm.id, .at(text)))
            return .done(report: alarmSet(alarm.id))
        } catch {
            return .refused(reason: .problem(error.message))
        }
    }

    /// When alarm `id` rings next, as a person says it: in how long, and at what time.
    private func alarmSet(_ id: AlarmID) -> CommandReport {
        let now = clock.wallNow.secondsSince1970
        let fire = alarms.nextFire(of: id) ?? now
        let format = AlarmTimeFormat(zone: ZonedTime(timeZone: configuration.alarmTimeZone))
        return .alarmSet(id: id.rawValue, seconds: fire - now, at: format.spokenClock(fire, now: now))
    }

    /// A new time for an alarm: the same alarm (id, label, sound), rescheduled.
    private func editAlarm(_ id: AlarmID, _ text: String) -> CommandResult {
        do {
            guard alarms.reschedule(id, to: try schedule(text)) else { return .refused(reason: .alarmGone(id: id.rawValue)) }
            events.emit(.alarmEdited(id, schedule: text))
            return .done(report: alarmSet(id))
        } catch {
            return .refused(reason: .problem(error.message))
        }
    }

    /// Removes the alarms made by `fireTestAlarm` and `addAlarm(afterSeconds:)`
    /// once they have rung (and not been snoozed), so testing leaves nothing
    /// behind in alarms.json. One the user disabled before it rang stays (it
    /// has no next ring either). True when one went.
    @discardableResult
    func removeRungTestAlarms() -> Bool {
        guard !testAlarms.isEmpty, hasAlarmScheduler else { return false }
        if let ringing = alarms.ringing {
            rungTestAlarms.formUnion(testAlarms.intersection(ringing.alarmIDs))
            return false
        }
        var removed = false
        for id in rungTestAlarms where alarms.nextFire(of: id) == nil {
            alarms.remove(id)
            testAlarms.remove(id)
            rungTestAlarms.remove(id)
            removed = true
        }
        return removed
    }
}
