import PlayerModel
import SpokenAudio
import Testing

/// Spoken audio's config defaults and its two commands' rows, pure.
struct SpokenAudioConfigTests {
    @Test("the defaults: a strength for books and podcasts, a loudness or on/off; anything else is one line naming the key")
    func spokenAudioDefaults() {
        let config = PlayerConfigFile.parse("""
            book-trim-silence = gentle
            podcast-trim-silence = on
            book-voice-boost = -20
            podcast-voice-boost = on
            """, path: "/c/config")
        #expect(config.problems.isEmpty)
        #expect(config.bookTrimSilence == .gentle && config.podcastTrimSilence == .medium)
        #expect(config.bookVoiceBoost?.target == -20 && config.podcastVoiceBoost == .standard)
        let bad = PlayerConfigFile.parse("book-trim-silence = max\npodcast-voice-boost = -40\nbook-voice-boost = 9e99", path: "/c/config")
        #expect(bad.bookTrimSilence == nil && bad.podcastVoiceBoost == nil && bad.bookVoiceBoost == nil)
        #expect(bad.problems.map(\.description) == [
            "/c/config:1: book-trim-silence must be off, on, gentle, medium or strong, not 'max'",
            "/c/config:2: podcast-voice-boost must be off, on, or a loudness from -24 to -12 (LUFS), not '-40'",
            "/c/config:3: book-voice-boost must be off, on, or a loudness from -24 to -12 (LUFS), not '9e99'",
        ])
    }
}
