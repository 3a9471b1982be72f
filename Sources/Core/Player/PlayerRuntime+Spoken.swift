import AudioEngine
import PlayerModel
import SpokenAudio

/// Spoken audio's two settings, trimmed pauses and levelled voices: for a
/// book, a podcast's episode or `--spoken` files, never for music. A book
/// remembers what the listener chose (`BookSession.spokenSettingsChanged`).
extension PlayerRuntime {
    /// The `Z` key and `trim-silence`: a strength, or the next one.
    package func setTrimSilence(_ requested: TrimStrength?) -> CommandResult {
        guard isSpokenAudio else { return .refused(reason: .problem("trim-silence is for books and podcasts, not music")) }
        let strength = requested ?? Self.strength(after: engine.trimStrength)
        engine.setTrimStrength(strength)
        book?.spokenSettingsChanged(trim: true, boost: false)
        emitSpokenAudio()
        return .done
    }

    /// The `B` key and `voice-boost`: a target, or on (-18 LUFS) and off in turn.
    package func setVoiceBoost(_ requested: VoiceBoost?) -> CommandResult {
        guard isSpokenAudio else { return .refused(reason: .problem("voice-boost is for books and podcasts, not music")) }
        let boost = requested ?? (engine.voiceBoost.isOn ? .off : .standard)
        engine.setVoiceBoost(boost)
        book?.spokenSettingsChanged(trim: false, boost: true)
        emitSpokenAudio()
        return .done
    }

    static func strength(after strength: TrimStrength) -> TrimStrength {
        let all = TrimStrength.allCases
        let index = all.firstIndex(of: strength) ?? 0
        return all[(index + 1) % all.count]
    }

    package func emitSpokenAudio() {
        events.emit(.spokenAudio(trimSilence: engine.trimStrength.rawValue, voiceBoost: engine.voiceBoost.word))
    }

    /// Seconds the trimmer saved in what this engine played (heard).
    package var timeSavedSeconds: Double { format.seconds(forFrames: engine.trimSavedFrames) }

    /// At the end of a run that trimmed: what it saved, and the book's and everyone's totals.
    func emitTimeSaved() {
        guard isSpokenAudio, engine.trimStrength.isOn || engine.trimSavedFrames > 0 else { return }
        // The book's files hold the totals: this run's last part first.
        book?.save()
        let totals = book?.timeSavedTotals
        events.emit(.timeSaved(seconds: timeSavedSeconds, book: totals?.book, total: totals?.total))
    }
}
