import AudioEngine

/// Moving around the queue, for the full-screen player: seeks, next and
/// previous, playing a new list and adding to it. Each is a jump of the
/// media to a stream frame through `PlaybackEngine.resumeMedia(from:)`,
/// which fades out, flushes, seeks the decoder and fades in.
///
/// Each returns nil when done, or a sentence saying why it could not be.
extension PlayerRuntime {
    var isPlaying: Bool { player.isPlaying }
    var isInterrupted: Bool { player.interruption != nil }

    /// The track the listener is in, by heard position (or where it stopped).
    var currentTrack: TrackFeeder.Track? {
        let heard = engine.stopPosition ?? engine.heardPosition
        return engine.feeder.tracks.last { $0.startFrame <= heard }
    }

    func seek(bySeconds delta: Double) -> String? {
        guard !engine.isFinished else { return Self.endedMessage }
        guard player.isPlaying, let track = currentTrack else { return "seeking works while playing" }
        var target = engine.heardPosition + format.frames(forSeconds: delta)
        target = max(track.startFrame, target)
        if let length = track.endFrame.map({ $0 - track.startFrame }) ?? track.expectedFrames {
            // Not past the end: a second before it at most.
            target = min(target, track.startFrame + max(0, length - format.rate))
        }
        jump(to: target, action: "seek")
        return nil
    }

    func next() -> String? {
        guard !engine.isFinished else { return Self.endedMessage }
        guard let track = currentTrack else { return nil }
        let feeder = engine.feeder
        guard track.index + 1 < feeder.paths.count else { return "this is the last track" }
        if let decoded = feeder.tracks.first(where: { $0.index > track.index }) {
            jump(to: decoded.startFrame, action: "next")
        } else if let start = feeder.jump(toPathIndex: track.index + 1) {
            jump(to: start, action: "next")
        } else {
            return "no file after this one can be played"
        }
        return nil
    }

    func previous() -> String? {
        guard !engine.isFinished else { return Self.endedMessage }
        guard let track = currentTrack else { return nil }
        let heard = engine.stopPosition ?? engine.heardPosition
        // cmus and most players: back to the start, unless already near it.
        if heard - track.startFrame > format.frames(forSeconds: 3) {
            jump(to: track.startFrame, action: "previous")
        } else if let earlier = engine.feeder.tracks.last(where: { $0.index < track.index }) {
            jump(to: earlier.startFrame, action: "previous")
        } else {
            jump(to: track.startFrame, action: "previous")
        }
        return nil
    }

    /// Plays `paths` from `startAt`, after what is queued: the queue's list
    /// grows, and the caller shows it from `firstIndex` on.
    func playQueue(_ paths: [String], startAt index: Int) -> (firstIndex: Int, message: String?) {
        let feeder = engine.feeder
        guard !engine.isFinished else { return (0, Self.endedMessage) }
        let first: Int
        if let existing = feeder.paths.indices.first(where: { Array(feeder.paths[$0...].prefix(paths.count)) == paths }),
           existing + paths.count == feeder.paths.count {
            first = existing  // The queue pane: the same list, another track.
        } else {
            first = feeder.paths.count
            feeder.append(paths)
        }
        if let decoded = feeder.tracks.first(where: { $0.index == first + index }) {
            jump(to: decoded.startFrame, action: "play")
        } else if let start = feeder.jump(toPathIndex: first + index) {
            jump(to: start, action: "play")
        } else {
            return (first, "none of these files can be played")
        }
        return (first, nil)
    }

    func enqueue(_ paths: [String]) -> String? {
        guard !engine.isFinished else { return Self.endedMessage }
        engine.feeder.append(paths)
        printer.emit("enqueued") { $0.add("files", paths.count) }
        return nil
    }

    var volume: Double {
        get { controller.volume }
        set {
            controller.volume = newValue
            printer.emit("volume") { $0.add("volume", controller.volume) }
        }
    }

    /// Moves playback to a stream frame; starts playing if the user had paused.
    private func jump(to frame: Int, action: String) {
        printer.emit(action) { $0.add("position", format.seconds(forFrames: frame), decimals: 6) }
        if !player.isPlaying {
            // The user's play: the controller resumes from where it stopped, and the
            // jump below, asked for later in the same turn, replaces that target.
            player.play()
            guard player.isPlaying else { return }
        }
        engine.resumeMedia(from: frame, fadeFrames: controller.fadeFrames)
    }

    static let endedMessage = "the queue has ended; start interlude again to play more"
}
