import AudioEngine
import Alarms
import BookFormat
import InterludeCore
import PlayerModel

/// The player's state as front ends see it (the screen before each draw;
/// next, the control socket's `status` and MPRIS), read from the runtime,
/// its session state machine, the book and the alarm scheduler.
extension PlayerRuntime {
    /// The titles are the decoders' readings of the tags (`trackTags`), for
    /// every front end. (MPD's replies read `playbackSnapshot`, without the
    /// queue's titles and the rest.)
    package func snapshot(_ detail: PlayerSnapshot.Detail) -> PlayerSnapshot {
        var snapshot = detail.full ? fullSnapshot() : detail.playback ? playbackSnapshot() : PlayerSnapshot()
        if detail.alarmPlan { snapshot.alarmPlan = alarmPlan }
        if detail.session { snapshot.session = sessionSnapshot }
        if detail.stations {
            if let problem = favouriteStations.reload() { events.error(problem) }
            snapshot.stations = favouriteStations.rows
        }
        for path in detail.tagsOf { snapshot.tags[path] = trackTags.tags(of: path) }
        return snapshot
    }

    private func fullSnapshot() -> PlayerSnapshot {
        var snapshot = PlayerSnapshot()
        setPlainFields(of: &snapshot)
        snapshot.queue = queue.map { .init(path: $0, title: trackTags.tags(of: $0).title ?? AudioTags.displayName(ofPath: $0)) }
        let current = current
        snapshot.currentPath = current?.path
        snapshot.fileElapsed = current?.elapsed ?? 0
        if let book {
            snapshot.currentIndex = current?.index
            let position = book.currentPosition
            let chapter = book.book.chapter(at: position)
            snapshot.title = book.book.title
            snapshot.artist = book.book.author ?? ""
            snapshot.album = "chapter \(chapter.index + 1)/\(book.book.chapters.count): \(chapter.title)"
            snapshot.elapsed = Double(position) / 1000
            snapshot.duration = Double(book.book.durationMilliseconds) / 1000
            snapshot.book = BookInfo(
                path: book.book.path, title: book.book.title,
                chapters: book.book.chapters.map {
                    .init(title: $0.title, startMilliseconds: $0.startMilliseconds, durationMilliseconds: $0.durationMilliseconds)
                },
                currentChapter: chapter.index,
                bookmarks: book.state.bookmarks.map {
                    .init(id: $0.id, positionMilliseconds: $0.positionMilliseconds, note: $0.note)
                },
                sleepSetting: book.sleepTimerSetting?.description,
                sleepRemaining: book.sleepRemaining.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 })
        } else if let current {
            snapshot.currentIndex = current.index
            let tags = trackTags.tags(of: current.path)
            snapshot.title = tags.title ?? AudioTags.displayName(ofPath: current.path)
            snapshot.artist = tags.artist ?? ""
            snapshot.album = tags.album ?? ""
            snapshot.elapsed = current.elapsed
            snapshot.duration = current.duration
            if let shift = stationTimeShift {
                let behind = Double(shift.behindLiveFrames) / Double(format.rate)
                snapshot.behindLive = behind
                snapshot.timeShiftLine = shift.behindLiveFrames < format.rate / 2 ? "live"
                    : "\(clockText(behind)) behind live" + (shift.isKept ? "" : " (time-shift off)")
            }
        }
        setModes(of: &snapshot, hasCurrent: current != nil)
        snapshot.speed = engine.speed.isNormal ? nil : engine.speed.description
        snapshot.session = sessionSnapshot
        snapshot.stations = favouriteStations.rows
        snapshot.podcasts = podcasts.shownRows
        snapshot.podcastActivity = podcasts.activity
        if hasAlarmScheduler {
            let scheduler = alarms
            let ringing = scheduler.ringing?.alarmIDs ?? []
            let now = clock.wallNow.secondsSince1970
            let text = AlarmRowText(zone: configuration.alarmTimeZone)
            // No session bus, no user manager to ask.
            let wake = wakeLabel
            let format = AlarmTimeFormat(zone: ZonedTime(timeZone: configuration.alarmTimeZone))
            let missed = scheduler.unseenMissed
            snapshot.alarms = scheduler.alarms.map { alarm in
                var note = ""
                if let last = missed.last(where: { $0.id == alarm.id }) {
                    note = "missed " + last.lateness
                } else if let skips = alarm.skips, skips > now, alarm.isEnabled {
                    note = "skips " + format.dayAndTime(skips)
                }
                var row = AlarmRow(id: alarm.id.rawValue, label: alarm.label,
                                   nextFire: scheduler.nextFire(of: alarm.id).map { text.nextFire($0, now: now) } ?? "",
                                   schedule: text.schedule(alarm.schedule, now: now),
                                   isEnabled: alarm.isEnabled, isRinging: ringing.contains(alarm.id), note: note,
                                   wake: alarm.isEnabled ? wake : "")
                row.rooms = alarm.rooms
                return row
            }
            snapshot.nextAlarm = scheduler.nextAlarm.map { format.nextAlarm($0, now: now) }
            snapshot.missedAlarms = missed.map(\.line)
        }
        return snapshot
    }
}

extension PlayerRuntime {
    /// The snapshot's state, volume, modes, current entry and its time alone,
    /// read as `snapshot` reads them: what MPD's replies use. `status` is an
    /// MPD client's most frequent request (ncmpcpp's every second), and the
    /// titles, the book's chapters and the alarms' rows the whole snapshot
    /// formats made it cost more than MPD's whole answer.
    private func playbackSnapshot() -> PlayerSnapshot {
        var snapshot = PlayerSnapshot()
        setPlainFields(of: &snapshot)
        let current = current
        snapshot.currentPath = current?.path
        snapshot.fileElapsed = current?.elapsed ?? 0
        if let book {
            snapshot.currentIndex = current?.index
            snapshot.elapsed = Double(book.currentPosition) / 1000
            snapshot.duration = Double(book.book.durationMilliseconds) / 1000
        } else if let current {
            snapshot.currentIndex = current.index
            snapshot.elapsed = current.elapsed
            snapshot.duration = current.duration
        }
        setModes(of: &snapshot, hasCurrent: current != nil)
        return snapshot
    }

    /// What every detail carries: copies of what the core holds.
    private func setPlainFields(of snapshot: inout PlayerSnapshot) {
        snapshot.queuePaths = queue
        snapshot.bookPath = book?.book.path
        snapshot.speedFactor = engine.speed.value
        if isSpokenAudio {
            let totals = book?.timeSavedTotals
            snapshot.spokenAudio = SpokenAudioStatus(trimSilence: engine.trimStrength.rawValue, voiceBoost: engine.voiceBoost.word,
                                                     timeSaved: timeSavedSeconds, bookTimeSaved: totals?.book,
                                                     totalTimeSaved: totals?.total)
        }
        snapshot.mediaStopped = engine.isMediaStopped
        snapshot.decoding = engine.decodingStream.map {
            .init(bitrateKbps: $0.info.bitrateKbps, rate: $0.format.rate, channels: $0.format.channels)
        }
        snapshot.engine = engineReport
        snapshot.alarmPlanGeneration = alarmPlanGeneration
    }

    private var alarmPlan: AlarmPlan? {
        guard hasAlarmScheduler else { return nil }
        let scheduler = alarms
        return AlarmPlan(
            alarms: scheduler.alarms.map {
                .init(id: $0.id.rawValue, label: $0.label, isEnabled: $0.isEnabled, isOneShot: $0.schedule.isOneShot,
                      nextFire: scheduler.nextFire(of: $0.id))
            },
            unseenMissed: scheduler.unseenMissed.map { .init(id: $0.id.rawValue, dueAt: $0.dueAt, line: $0.line) })
    }

    private func setModes(of snapshot: inout PlayerSnapshot, hasCurrent: Bool) {
        snapshot.state = !hasCurrent || engine.isFinished || isStoppedAtStart ? .stopped : isPlaying ? .playing
            : isInterrupted ? .interrupted : .paused
        snapshot.volume = volume
        snapshot.mutedFrom = volumeBeforeMute
        snapshot.shuffle = playOrder.cycle != nil
        snapshot.repeatMode = playOrder.repeatMode.rawValue
    }

    /// The engine's own account (the control socket's `status.engine`), read
    /// from the engine and never from the session state machine, so that the
    /// snapshot's `state` can be checked against it.
    package var engineReport: EngineReport {
        EngineReport(media: engine.mediaActivity.rawValue, voice: engine.voiceActivity.rawValue,
                     outputLost: engine.isOutputLost)
    }
}
