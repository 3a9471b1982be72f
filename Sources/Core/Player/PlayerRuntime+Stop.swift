import PlayerModel

/// Stop, as MPRIS and the remote mean it: not a quit, and not only a pause.
extension PlayerRuntime {
    /// Pauses (as the user: nothing resumes by itself) and goes back to the
    /// start of what plays: the track, or for a book the chapter, so that a
    /// stop never throws away the listener's place in the book. Play starts
    /// from there.
    package func stop() {
        player.pause()
        if let book {
            book.seek(to: book.book.chapter(at: book.currentPosition).startMilliseconds, reason: .chapter)
        } else if let current {
            jump(toQueueIndex: current.index, seconds: 0, play: false)
        }
        stopRequested = true
    }

    /// Stopped, as front ends report it: a stop was asked for, nothing has
    /// played since, and nothing has moved the listener from the start it
    /// went back to (a seek while stopped makes it an ordinary pause).
    package var isStoppedAtStart: Bool {
        guard stopRequested, !player.isPlaying else { return false }
        if let book {
            let position = book.currentPosition
            return position == book.book.chapter(at: position).startMilliseconds
        }
        return current.map { $0.elapsed == 0 } ?? false
    }
}
