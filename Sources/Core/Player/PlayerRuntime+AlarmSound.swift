import LoopIO
import Alarms
import AudioDecoding
import AudioEngine
import BookFormat
import Books
import InterludeCore
import Playlists
import PlayerModel

/// What an alarm's own sound keeps between the loop's turns
/// (`PlayerRuntime.alarmSound`): the next alarm's sound opened before it is
/// due, and the one sounding now with its watch.
package final class AlarmSoundState {
    /// The next alarm's sound, opened `preparationLead` before it is due (`AlarmScheduler.onPrepare`).
    package var prepared: (sound: AlarmSound, opened: OpenedAlarmSound)?
    /// The alarm's own sound while it rings, watched until it ends.
    package var sounding: SoundingAlarm?
    package var watchTimer: TimerToken?
    /// Frames of silence around the ringing alarm's sound in the stream (an
    /// alarm for some Snapcast rooms, `PlayerRuntime.roomGapFrames`); 0 otherwise.
    package var roomGapFrames = 0
}

/// An alarm's sound opened: its voice, and for a book where to save the place it reaches.
package struct OpenedAlarmSound {
    package let voice: MediaVoice
    package let book: AlarmBookPlace?
}

/// The book an alarm plays, and its state file.
package struct AlarmBookPlace {
    package let book: Book
    package let store: BookStateStore
    package var state: BookState
}

/// The sound that rings now, as the watch sees it.
package struct SoundingAlarm {
    package let alarm: AlarmID
    package let sound: AlarmSound
    package let opened: OpenedAlarmSound
    package let gain: Double
    /// The voice's sound counter when the watch last saw it grow, and when.
    package var audibleFrames: Int
    package var lastSound: MonotonicInstant
    package var lastSave: MonotonicInstant
}

/// The alarm's own media (a file, a folder, a saved
/// playlist, a book from its place, a station) as the alarm voice, with the
/// optional ramp; and the promise that an alarm always sounds: a sound that
/// does not open, or gives nothing a listener hears for `silenceLimit` after
/// it should have started (a file gone, a station down or stalled, a book at
/// its end), is replaced by the built-in tone, and `alarmSoundFallback` says why.
extension PlayerRuntime {
    /// How long the alarm's own sound may be silent before the tone rings instead.
    package static let alarmSilenceLimit = Duration.seconds(3)
    /// How often the sounding voice is looked at (and a book's place saved, every tenth look).
    package static let alarmWatchInterval = Duration.milliseconds(250)
    package static let alarmBookSaveInterval = Duration.seconds(5)

    /// The files of `sound`, opened from where it plays; the sentence saying why when nothing will.
    package func openAlarmSound(_ sound: AlarmSound) -> Result<OpenedAlarmSound, AlarmSoundProblem> {
        var book: AlarmBookPlace?
        let paths: [String]
        var start = MediaVoice.Place(index: 0, frame: 0)
        var loops = true
        switch sound {
        case .tone:
            return .failure(AlarmSoundProblem("a built-in tone"))
        case .file(let path):
            paths = [path]
        case .station(let url):
            paths = [url]
            loops = false
        case .folder(let path):
            guard let names = DirectoryListing.names(in: path) else {
                return .failure(AlarmSoundProblem("\(path): cannot read the folder"))
            }
            paths = BookFolderOrder.audioFiles(names).map { path.hasSuffix("/") ? path + $0 : path + "/" + $0 }
            if paths.isEmpty { return .failure(AlarmSoundProblem("\(path): the folder holds no audio files")) }
        case .playlist(let name):
            let file = playlistPath(name)
            let load: PlaylistLoad
            do throws(PlaylistFile.Failure) { load = try PlaylistFile.load(file) } catch {
                return .failure(AlarmSoundProblem(error.description))
            }
            paths = load.entries.map(\.path)
            if paths.isEmpty { return .failure(AlarmSoundProblem("\(file): the playlist has no entry that plays")) }
        case .book(let path):
            let opened: Book
            do throws(BookLoadError) { opened = try BookOpener.open(path) } catch {
                return .failure(AlarmSoundProblem(error.description))
            }
            let store = BookStateStore(directories: XDGDirectories(environment: ProcessEnvironment.current()))
            let state = store.load(opened.id, now: clock.wallNow).state
            let position = state.resumePosition(in: opened)
            let location = opened.location(at: position)
            paths = opened.files.map(\.path)
            start = MediaVoice.Place(index: location.fileIndex,
                                     frame: Int(Int64(location.offsetMilliseconds) * Int64(format.rate) / 1000))
            loops = false
            book = AlarmBookPlace(book: opened, store: store, state: state)
        }
        do throws(DecoderError) {
            let voice = try MediaVoice(paths: paths, start: start, loops: loops, format: format)
            return .success(OpenedAlarmSound(voice: voice, book: book))
        } catch {
            return .failure(AlarmSoundProblem(error.description))
        }
    }

    /// Opens the next alarm's sound before it is due, so that ringing starts a
    /// voice that is ready (the built-in tone needs nothing). A sound that does
    /// not open now is tried again when it rings, and reported then.
    package func prepareAlarmVoice(_ sound: AlarmSound) {
        if alarmSound.prepared?.sound == sound { return }
        alarmSound.prepared?.opened.voice.close()
        alarmSound.prepared = nil
        guard !sound.isTone, alarmSound.sounding?.sound != sound else { return }
        if case .success(let opened) = openAlarmSound(sound) { alarmSound.prepared = (sound, opened) }
    }

    /// Starts `alarm`'s sound as the exclusive voice, at its volume, rising
    /// over its ramp: it sounds from the frame the media stops (at once when
    /// it is stopped already). Returns why the built-in tone rings instead, for
    /// the caller to report once the ringing has been said.
    package func startVoice(for alarm: Alarm?) -> AlarmSoundProblem? {
        stopWatchingAlarmSound()
        let sound = alarm?.sound ?? .default
        let gain = min(1, max(0, alarm?.volume ?? 1))
        let ramp = alarm.map { Double($0.rampSeconds) } ?? 0
        let fadeFrames = ramp > 0 ? format.frames(forSeconds: ramp) : format.frames(forSeconds: 0.005)
        let gap = roomGapFrames(for: alarm)
        alarmSound.roomGapFrames = gap
        // The desktop's role policy quiets other programs' music meanwhile (PulseOutput.alarmRole). Set
        // before the voice starts: a sleeping output woken by the voice makes its stream with the role
        // it finds then (set after, it could find no stream yet to change, and keep the music's).
        engine.setAlarmRole(true)
        var problem: AlarmSoundProblem?
        var opened: OpenedAlarmSound?
        if !sound.isTone {
            if let prepared = alarmSound.prepared, prepared.sound == sound {
                opened = prepared.opened
            } else {
                switch openAlarmSound(sound) {
                case .success(let fresh): opened = fresh
                case .failure(let failure): problem = failure
                }
            }
        }
        // Used once: the next alarm gets a voice of its own, from the start of its file (a book from its place).
        if let prepared = alarmSound.prepared, prepared.opened.voice !== opened?.voice { prepared.opened.voice.close() }
        alarmSound.prepared = nil
        if let opened, let alarm {
            engine.startVoice(opened.voice, exclusive: true, gain: gain, fadeFrames: fadeFrames, leadInFrames: gap)
            let now = clock.monotonicNow
            alarmSound.sounding = SoundingAlarm(alarm: alarm.id, sound: sound, opened: opened, gain: gain,
                                                audibleFrames: opened.voice.audibleFrames, lastSound: now, lastSave: now)
            scheduleAlarmSoundWatch()
        } else {
            engine.startVoice(ToneVoice(), exclusive: true, gain: gain,
                              fadeFrames: problem == nil ? fadeFrames : format.frames(forSeconds: 0.005), leadInFrames: gap)
        }
        return problem
    }

    /// Says that `alarm`'s own sound did not play: the event, and the error line.
    package func reportAlarmSoundFallback(_ id: AlarmID?, sound: AlarmSound?, _ problem: AlarmSoundProblem) {
        guard let id, let sound else { return }
        events.emit(.alarmSoundFallback(id, sound: sound.description, reason: problem.reason))
    }

    /// The ringing is over: the watch stops, a book's place is saved, the voice's files are released.
    package func stopWatchingAlarmSound() {
        if let timer = alarmSound.watchTimer { clock.cancel(timer) }
        alarmSound.watchTimer = nil
        guard let sounding = alarmSound.sounding else { return }
        alarmSound.sounding = nil
        saveAlarmBookPlace(sounding)
        sounding.opened.voice.close()
    }

    private func scheduleAlarmSoundWatch() {
        alarmSound.watchTimer = clock.schedule(after: Self.alarmWatchInterval) { [unowned self] in
            alarmSound.watchTimer = nil
            watchAlarmSound()
        }
    }

    /// Looks at the sounding voice: sound given since the last look, a
    /// failure, or silence past the limit (then the tone); a book's place saved now and then.
    private func watchAlarmSound() {
        guard var sounding = alarmSound.sounding else { return }
        let now = clock.monotonicNow
        let voice = sounding.opened.voice
        if voice.audibleFrames != sounding.audibleFrames {
            sounding.audibleFrames = voice.audibleFrames
            sounding.lastSound = now
        }
        var problem: AlarmSoundProblem?
        if let failure = voice.failure, now - sounding.lastSound >= .milliseconds(500) {
            // What was given before the end plays out first (the voice's ring is half a second).
            problem = AlarmSoundProblem(failure)
        } else if now - sounding.lastSound >= Self.alarmSilenceLimit {
            let seconds = (now - sounding.lastSound).components.seconds
            problem = AlarmSoundProblem(sounding.audibleFrames == 0
                ? "\(voice.currentPath ?? sounding.sound.description) gave no sound for \(seconds) s"
                : "\(voice.currentPath ?? sounding.sound.description) fell silent for \(seconds) s")
        }
        if let problem {
            saveAlarmBookPlace(sounding)
            alarmSound.sounding = nil
            voice.close()
            // At the alarm's volume at once: a ramp under way was the chosen sound's.
            // A target a hair below starts a new ramp in the writer, at the tone's own step.
            engine.startVoice(ToneVoice(), exclusive: true, gain: Double(Float(sounding.gain).nextDown),
                              fadeFrames: format.frames(forSeconds: 0.005))
            reportAlarmSoundFallback(sounding.alarm, sound: sounding.sound, problem)
            return
        }
        if now - sounding.lastSave >= Self.alarmBookSaveInterval {
            saveAlarmBookPlace(sounding)
            sounding.lastSave = now
        }
        alarmSound.sounding = sounding
        scheduleAlarmSoundWatch()
    }

    /// A book's place where its voice has reached, less what waits in the voice's ring (not heard yet).
    private func saveAlarmBookPlace(_ sounding: SoundingAlarm) {
        guard let place = sounding.opened.book else { return }
        let voicePlace = sounding.opened.voice.place
        guard place.book.files.indices.contains(voicePlace.index) else { return }
        let file = place.book.files[voicePlace.index]
        let heard = max(0, voicePlace.frame - engine.voiceFramesQueued)
        let offset = Int(Int64(heard) * 1000 / Int64(format.rate))
        let position = file.startMilliseconds + min(offset, file.durationMilliseconds)
        let now = clock.wallNow
        let update = place.store.update(place.book.id, now: now, fallback: place.state) { state in
            state.setPosition(position, in: place.book, now: now)
        }
        if let failure = update.failure { events.error("\(place.book.path): the place was not saved: \(failure.description)") }
    }
}

/// Why an alarm's own sound does not play: one sentence naming the file, folder, playlist, book or URL.
package struct AlarmSoundProblem: Error, Equatable {
    package let reason: String
    package init(_ reason: String) { self.reason = reason }
}
