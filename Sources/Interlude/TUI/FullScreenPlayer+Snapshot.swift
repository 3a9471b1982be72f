import Alarms
import PlayerModel
import TUI

/// What the screen shows, read from the runtime, the book and the tags before each draw.
extension FullScreenPlayer {
    func snapshot(_ runtime: PlayerRuntime) -> PlayerSnapshot {
        let alarmText = AlarmRowText(zone: zone)
        var snapshot = PlayerSnapshot()
        snapshot.queue = runtime.queue.map { .init(path: $0, title: title(of: $0)) }
        let current = runtime.current
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
            let trackTags = tags(of: current.path)
            snapshot.title = trackTags.title ?? TrackTags.displayName(ofPath: current.path)
            snapshot.artist = trackTags.artist ?? ""
            snapshot.album = trackTags.album ?? ""
            snapshot.elapsed = current.elapsed
            snapshot.duration = current.duration
        }
        snapshot.state = current == nil || runtime.engine.isFinished ? .stopped : runtime.isPlaying ? .playing
            : runtime.isInterrupted ? .interrupted : .paused
        snapshot.volume = runtime.volume
        snapshot.speed = runtime.engine.speed.isNormal ? nil : runtime.engine.speed.description
        snapshot.session = runtime.sessionSnapshot
        if runtime.hasAlarmScheduler {
            let scheduler = runtime.alarms
            let ringing = scheduler.ringing?.alarmIDs ?? []
            snapshot.alarms = scheduler.alarms.map { alarm in
                let next = scheduler.nextFire(of: alarm.id)
                return AlarmRow(id: alarm.id.rawValue, label: alarm.label,
                                nextFire: next.map { alarmText.nextFire($0, now: runtime.clock.wallNow.secondsSince1970) } ?? "",
                                schedule: alarmText.schedule(alarm.schedule, now: runtime.clock.wallNow.secondsSince1970),
                                isEnabled: alarm.isEnabled, isRinging: ringing.contains(alarm.id))
            }
        }
        snapshot.books = shelf.rows(current: book)
        return snapshot
    }

    func tags(of path: String) -> TrackTags {
        if let known = tags[path] { return known }
        let read = TrackTags.read(path: path)
        tags[path] = read
        return read
    }

    func title(of path: String) -> String {
        tags(of: path).title ?? TrackTags.displayName(ofPath: path)
    }
}
