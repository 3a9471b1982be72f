import AudioEngine
import AudioSession
import InterludeCore
import PlayerModel

/// Carries out the player state machine's actions on the audio engine, and
/// reports every action as an event.
///
/// Pause: fade, stop at an exact frame, remember it and when. Resume: back to
/// that frame minus smart rewind (spoken audio), clamped to the track's start,
/// then fade in. A resume asked for while the fade-out is still running turns
/// the fade back up where it is (`PlaybackEngine.cancelPause`): nothing is
/// skipped or repeated, so the position stays the heard one.
package final class PlaybackController: PlayerActionSink {
    package let engine: PlaybackEngine
    package let clock: any Clock
    package let events: PlayerEventStream
    package let smartRewind: SmartRewind
    package let fadeMilliseconds: Int
    /// Set once the session exists (it needs this object as its sink).
    package var player: PlayerSession?
    /// For books: the stream frame where the chapter holding a stream frame
    /// starts (nil: the track's start is the chapter's).
    package var chapterStartFrame: ((Int) -> Int?)?
    /// For books: a stream frame in book time (seconds), for the positions the
    /// events report. Without it they are the stream's own seconds.
    package var bookSeconds: ((Int) -> Double?)?

    /// The seconds an event reports for stream frame `frame`.
    private func reported(_ frame: Int) -> Double {
        bookSeconds?(frame) ?? engine.format.seconds(forFrames: frame)
    }

    /// Playing, fading or stopped; a resume waiting for the stop; a jump waiting for the resume.
    package let pause: MediaPause
    /// Smart rewind over the interruptions since the listener last caught up.
    private var rewindRun: SmartRewindRun

    /// The listener's volume, 0...1: the writer's volume ramp, which
    /// multiplies with ducking, so a chime and the volume keys compose.
    package var volume: Double {
        get { engine.volume }
        set { engine.setVolume(min(1, max(0, newValue))) }
    }

    package init(engine: PlaybackEngine, clock: any Clock, events: PlayerEventStream, smartRewind: SmartRewind, fadeMilliseconds: Int) {
        self.engine = engine
        self.clock = clock
        self.events = events
        self.smartRewind = smartRewind
        pause = MediaPause(clock: clock)
        rewindRun = SmartRewindRun(rewind: smartRewind, rate: engine.format.rate)
        self.fadeMilliseconds = fadeMilliseconds
    }

    package var fadeFrames: Int { engine.format.frames(forSeconds: Double(fadeMilliseconds) / 1000) }

    /// A pipeline that takes over from another while an interruption holds
    /// the player (`PlayerRuntime+Switch`): stopped before its first frame,
    /// its first resume plays from there, with no rewind for a wait in which
    /// nothing of it was heard. A resume asked for before the stop lands
    /// waits for it, as during a fade-out.
    package func holdBeforeFirstFrame() {
        engine.pauseMedia(fadeFrames: 1)
        pause.holdBeforeFirstFrame()
    }

    package func perform(_ action: PlayerAction) {
        switch action {
        case .pause(let fade):
            let frames = engine.format.frames(forSeconds: fade.seconds)
            if case .fade(let aim) = pause.pauseRequested() {
                // What the listener hears at this moment: with `paused`'s position, how
                // much still sounded after the pause was asked for (buffer plus fade).
                events.emit(.pauseRequested(position: reported(engine.heardPosition)))
                engine.pauseMedia(fadeFrames: max(1, frames), endingAtStreamFrame: aim)
            }
        case .resume(let trigger):
            // During a fade-out the media still runs, but a pause is on its way: the
            // resume waits for the stop rather than being taken for the first play.
            if pause.phase == .playing && !engine.isMediaStopped && !engine.isOutputLost && !pauseRequested {
                return  // Already playing: the first play of the run.
            }
            if engine.isOutputLost {
                let firstOutput = !engine.hasOpenedOutput
                do { try engine.reopenOutput() } catch {
                    player?.resumeDidFail(reason: error.description)
                    return
                }
                if firstOutput {
                    // Nothing was heard yet (no device at start): play from where the
                    // queue starts, with no rewind for the time spent waiting.
                    pause.firstOutputOpened()
                }
            }
            events.emit(.resumeRequested(trigger == .user ? .user : .automatic))
            // Still fading out (a sleep timer's fade lasts 10 s): the fade turns
            // back up where it is, rather than waiting for silence and a rewind.
            if pause.fadeCanBeTakenBack && engine.cancelPause(fadeFrames: fadeFrames) {
                pause.fadeTakenBack()
                events.emit(.resumed(.fadeCancelled(position: reported(engine.heardPosition))))
                return
            }
            pause.resumeRequested()
            resumeIfStopped()
        case .duck(let gain, let ramp):
            engine.setDuck(gain: gain, rampFrames: engine.format.frames(forSeconds: ramp.seconds))
            events.emit(.ducked(gain: gain))
        case .unduck(let ramp):
            engine.setDuck(gain: 1, rampFrames: engine.format.frames(forSeconds: ramp.seconds))
            events.emit(.unducked)
        case .resumeScheduled(let delay):
            events.emit(.resumeScheduled(delay: delay.seconds))
        case .resumePostponed:
            events.emit(.resumePostponed)
        case .resumeFailed(let reason):
            events.emit(.resumeFailed(reason: reason))
        case .playRefused(let reason):
            events.emit(.playRefused(reason: reason))
        case .stayPaused:
            events.emit(.stayPaused)
        }
    }

    private var pauseRequested: Bool { player.map { !$0.isPlaying } ?? false }

    /// The engine reports that a pause took effect at `position`.
    package func mediaStopped(at position: Int) {
        pause.mediaStopped()
        events.emit(.paused(position: reported(position)))
        resumeIfStopped()
    }

    /// Moves playback to queue entry `index`, `offsetFrames` into it: at once
    /// while playing, else where the next resume starts (no smart rewind).
    package func jump(toQueueIndex index: Int, offsetFrames: Int) {
        // A jump under way stops the media for a moment (the pause drops the device's
        // queue at once): that is still playing.
        let playing = player?.isPlaying == true && (!engine.isMediaStopped || engine.isResumePending)
            && !engine.isOutputLost
            && pause.jumpsAtOnce
        rewindRun.reset()
        if playing {
            engine.jump(toQueueIndex: index, offsetFrames: offsetFrames, fadeFrames: fadeFrames)
        } else {
            pause.jumpAtResume(toQueueIndex: index, offsetFrames: offsetFrames)
        }
        events.emit(.jump(index: index, offset: engine.format.seconds(forFrames: offsetFrames), whilePaused: !playing))
    }

    private func resumeIfStopped() {
        switch pause.takeResume(stopFrameKnown: engine.stopPosition != nil) {
        case nil:
            return
        case .jump(let jump)?:
            rewindRun.reset()
            engine.jump(toQueueIndex: jump.queueIndex, offsetFrames: jump.offsetFrames, fadeFrames: fadeFrames)
            events.emit(.resumed(.jumped(index: jump.queueIndex, offset: engine.format.seconds(forFrames: jump.offsetFrames))))
        case .stopFrame(let stoppedFor, let nothingHeardYet)?:
            guard let stop = engine.stopPosition else { return }
            let format = engine.format
            let trackStart = engine.feeder.tracks.last(where: { $0.startFrame <= stop })?.startFrame ?? 0
            // Smart rewind stops at the chapter's start: a book's chapter can begin inside a track.
            let chapterStart = max(trackStart, chapterStartFrame?(stop) ?? trackStart)
            // Interruptions in a row rewind no further, all told, than the formula
            // gives for all the time away (`SmartRewindRun`).
            let target = nothingHeardYet ? stop
                : rewindRun.target(stop: stop, stoppedFor: stoppedFor.seconds, chapterStart: chapterStart)
            engine.resumeMedia(from: target, fadeFrames: fadeFrames)
            events.emit(.resumed(.rewound(position: reported(target), rewind: format.seconds(forFrames: stop - target))))
        }
    }
}

extension Duration {
    package var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
