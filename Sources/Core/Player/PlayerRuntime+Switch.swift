import AudioDecoding
import AudioEngine
import AudioSession
import Books
import PlayerModel

/// What plays is a setting of the one player, not a second player: a book
/// is a pipeline over its files in spoken-audio mode (the session's policy
/// column, smart rewind, no ReplayGain, the book's speed), music one over a
/// queue with shuffle, repeat and ReplayGain. A switch replaces the engine
/// and keeps the session with the arbiter, the clock, the alarms and every
/// interruption under way: what is chosen during an alarm, a call or a
/// suspension waits, stopped before its first frame, and plays when the
/// policy resumes (a book from its place less smart rewind).
extension PlayerRuntime {
    /// Plays `target` instead of what plays now; refused only where the
    /// player keeps no books (headless play plays what it was started with)
    /// or when nothing of it can be decoded.
    package func switchPlayback(to target: PlaybackSwitch) -> CommandResult {
        guard let store = configuration.bookStore else {
            return .refused(reason: .cannotSwitch)
        }
        var session: BookSession?
        var paths: [String]
        var speed = configuration.speed
        switch target {
        case .book(let path, let opened):
            let book: Book
            if let opened { book = opened } else {
                do { book = try BookOpener.open(path) } catch { return .refused(reason: .problem(error.description)) }
            }
            var spoken = configuration.scenario
            spoken.spoken = true
            do {
                session = try BookSession(book: book, options: BookPlayOptions(),
                                          smartRewind: SmartRewind(maxRewindSeconds: spoken.effectiveSmartRewind),
                                          events: events, store: store)
            } catch { return .refused(reason: .problem(error.message)) }
            paths = session?.paths ?? []
            speed = PlaybackSpeed(session?.state.speed ?? 1) ?? .normal
        case .music(let list, _):
            paths = list
        }
        guard Self.anyDecodes(paths) else { return .refused(reason: .problem(PlaybackEngine.StartError.nothingPlayable.description)) }
        leaveWhatPlays()
        // The old engine's device is closed before the new one opens it (an ALSA hw device opens once).
        engine.stop()
        let next: PlaybackEngine
        switch Self.openEngine(configuration, paths: paths, spoken: session != nil, speed: speed) {
        case .success(let engine): next = engine
        case .failure(let failure): return .refused(reason: .problem(failure.problems.joined(separator: "; ")))
        }
        player.setContent(session != nil ? .spokenAudio : .music)
        replacePlayback(with: next, spoken: session != nil)
        if let session {
            session.begin(with: self)
            onBookOpened?(session)
        } else if case .music(_, let index) = target, index > 0 {
            start(atQueueIndex: index, seconds: 0)
        }
        if let gain = player.duckGain { engine.setDuck(gain: gain, rampFrames: 0) }
        // Chosen, so it is to play: at once, or when what holds the player lets it.
        let held = isSessionSuspended || arbiter.isSleepAnnounced || player.interruptionHoldsPlay
        if held { controller.holdBeforeFirstFrame() }
        if !player.isPlaying { player.playWhenAllowed() }
        if let ringing = createdScheduler?.ringing {
            // The alarm sounds on: its voice goes to the new engine.
            startAlarmVoice(ringing.alarmIDs)
        }
        return .done
    }

    private static func anyDecodes(_ paths: [String]) -> Bool {
        paths.contains { (try? Decoders.open(path: $0, target: nil)) != nil }
    }

    /// The book keeps its place in its state file; music's queue goes to the host (player.json).
    private func leaveWhatPlays() {
        if let book { book.close() } else { onMusicLeft?() }
    }
}

/// What a switch plays: a book (its path, and the book when it was opened
/// already, checked before the switch), or music from entry `startAt`.
package enum PlaybackSwitch {
    case book(String, Book?)
    case music([String], startAt: Int)
}
