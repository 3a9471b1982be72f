import AudioEngine
import PlayerModel

/// The queue: what plays, where the listener is in it, and moves within it.
extension PlayerRuntime {
    /// The queue: every file, in play order (those played included).
    package var queue: [String] { engine.feeder.paths }

    /// The queue entry the listener is in, and the seconds heard of it. A jump
    /// made while paused is carried out by the next resume, and one made while
    /// playing lands after a short fade, but the listener is there already:
    /// status, MPRIS's Position and the next seek start from it (two seeks of
    /// +10 s in a row go 20 s on).
    package var current: (index: Int, path: String, elapsed: Double, duration: Double?)? {
        let waiting = controller.pause.pendingJump.map { (index: $0.queueIndex, offset: $0.offsetFrames) }
        if let jump = waiting ?? engine.pendingJump, queue.indices.contains(jump.index) {
            // The length of a file not decoded yet in this run is not known until the resume opens it.
            let known = engine.feeder.tracks.last { $0.index == jump.index && $0.path == queue[jump.index] }
            return (jump.index, queue[jump.index], format.seconds(forFrames: max(0, jump.offset)),
                    known?.expectedFrames.map(format.seconds(forFrames:)))
        }
        guard let (track, offset) = engine.heardTrack else { return nil }
        return (track.index, track.path, format.seconds(forFrames: max(0, offset)),
                track.expectedFrames.map(format.seconds(forFrames:)))
    }

    /// True while the music plays (not paused by the user, an interruption or
    /// the queue's end); the moment of silence of a jump or a resume under way
    /// is still playing.
    package var isPlaying: Bool { player.isPlaying && (!engine.isMediaStopped || engine.isResumePending) }

    /// Before `run`: start at queue entry `index`, `seconds` into it.
    @discardableResult
    package func start(atQueueIndex index: Int, seconds: Double) -> Bool {
        engine.start(atQueueIndex: index, offsetFrames: format.frames(forSeconds: seconds))
    }

    /// Plays `paths` from entry `index`: they replace what was queued after the
    /// current entry, which stays behind them for `previous()`.
    package func playQueue(_ paths: [String], startAt index: Int) {
        guard !paths.isEmpty else { return }
        let here = current?.index ?? -1
        let chosen = max(0, min(index, paths.count - 1))
        playOrder.listStart = here + 1
        playOrder.unshuffled = nil
        if playOrder.cycle != nil {
            // Shuffled: the chosen file plays, then the rest in a new cycle.
            engine.feeder.replaceQueue(after: here, with: startCycle(over: paths, leading: [chosen]))
            jump(toQueueIndex: here + 1, seconds: 0, play: true)
            return
        }
        engine.feeder.replaceQueue(after: here, with: paths)
        jump(toQueueIndex: here + 1 + chosen, seconds: 0, play: true)
    }

    /// Adds files to the end of the queue.
    package func enqueue(_ paths: [String]) {
        engine.enqueue(paths)
        events.emit(.enqueued(count: paths.count))
    }

    /// Forgets the entries after the one heard now, also one the feeder has
    /// begun decoding already for the gapless join: the current entry ends
    /// the queue. Returns how many went.
    package func clearQueue() -> Int {
        let here = current?.index ?? -1
        let before = queue.count
        engine.feeder.replaceQueue(after: here, with: [])
        engine.forgetDecodedAhead(fadeFrames: controller.fadeFrames)
        return before - queue.count
    }

    /// Removes, moves or shuffles entries after the one heard now; one the
    /// feeder has begun for the gapless join is decoded again from the queue as it is now.
    package func editQueue(_ edit: QueueEdit) -> CommandResult {
        switch edit.kept(count: queue.count) {
        case .kept(let positions)?: return rearrangeQueue(keeping: positions)
        case .refused(let refusal)?: return .refused(reason: refusal)
        case nil: break
        }
        let here = current?.index ?? -1
        var random = SystemRandomNumberGenerator()
        switch edit.upcoming(of: queue, here: here, random: &random) {
        case .refused(let refusal): return .refused(reason: refusal)
        case .upcoming(let upcoming):
            engine.feeder.replaceQueue(after: here, with: upcoming)
            engine.forgetDecodedAhead(fadeFrames: controller.fadeFrames)
            return .done
        }
    }

    /// The queue becomes the entries at `positions`, in that order, as MPD
    /// edits its queue (`QueueEdit.keep`). The entry that plays keeps playing
    /// where it went (what follows it, when changed, is decoded again from the
    /// heard frame, as `editQueue` does); gone, the entry that followed it and
    /// stayed plays in its place, paused if it was; with none, playback stops
    /// and no entry is current until the next play, which starts at the first.
    package func rearrangeQueue(keeping positions: [Int]) -> CommandResult {
        let old = queue
        var place = [Int?](repeating: nil, count: old.count)
        for (new, position) in positions.enumerated() {
            guard old.indices.contains(position), place[position] == nil else { return .refused(reason: .noQueueEntry(position: position)) }
            place[position] = new
        }
        let here = current
        let upcomingBefore = here.map { Array(old.dropFirst($0.index + 1)) }
        let paths = positions.map { old[$0] }
        // A jump asked for and not yet carried out names an entry by its old position.
        let jumping = controller.pause.pendingJump != nil || engine.pendingJump != nil
        engine.rearrangeQueue(paths, place: { place.indices.contains($0) ? place[$0] : nil })
        playOrder.listStart = place[..<min(playOrder.listStart, place.count)].filter { $0 != nil }.count
        guard let here else { return .done }
        if let moved = place[here.index] {
            if jumping {
                jump(toQueueIndex: moved, seconds: here.elapsed, play: false)
            } else if upcomingBefore != Array(paths.dropFirst(moved + 1)) {
                engine.forgetDecodedAhead(fadeFrames: controller.fadeFrames)
            }
            return .done
        }
        // The entry that played went: the one after it that stayed, else a stop.
        if let next = place[(here.index + 1)...].first(where: { $0 != nil }) ?? nil {
            jump(toQueueIndex: next, seconds: 0, play: false)
        } else {
            // As MPD: stopped, and no entry is current (the next play starts at the first).
            player.pause()
            engine.forgetQueuePosition()
            stopRequested = true
        }
        return .done
    }

    package func next() {
        guard let current else { return }
        if current.index + 1 >= queue.count {
            // Repeat all: the next pass begins (the feeder appends it itself only once decoding gets there).
            let more = nextRepeatCycle()
            guard !more.isEmpty else { return }
            engine.feeder.replaceQueue(after: queue.count - 1, with: more)
        }
        jump(toQueueIndex: current.index + 1, seconds: 0, play: true)
    }

    /// The previous entry, or the start of this one after its first 3 seconds (as cmus and mpv do).
    package func previous() {
        guard let current else { return }
        let target = current.elapsed > 3 || current.index == 0 ? current.index : current.index - 1
        jump(toQueueIndex: target, seconds: 0, play: true)
    }

    /// Seeks within the current entry; past its end goes to the next one.
    package func seek(bySeconds delta: Double) {
        guard let current else { return }
        let target = max(0, current.elapsed + delta)
        if let duration = current.duration, target >= duration {
            guard current.index + 1 < queue.count else { return }
            jump(toQueueIndex: current.index + 1, seconds: 0, play: false)
            return
        }
        jump(toQueueIndex: current.index, seconds: target, play: false)
    }

    /// Moves to queue entry `index`, `seconds` into it. `play`: also start
    /// playing when paused (choosing a track plays it; a seek keeps the state).
    package func jump(toQueueIndex index: Int, seconds: Double, play: Bool) {
        controller.jump(toQueueIndex: index, offsetFrames: format.frames(forSeconds: seconds))
        if play && !player.isPlaying { player.play() }
    }
}
