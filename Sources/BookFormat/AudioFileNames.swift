/// Which file names are audio the player opens, by extension (any case): the
/// folder browser, the books pane and a book's folder list these. Opening
/// goes by content (`Decoders.open` sniffs the bytes); the extension only
/// decides what is listed.
public enum AudioFileNames {
    /// MP3 (libmpg123), and what FFmpeg's libraries decode: AAC and ALAC in
    /// MP4 (`m4a`, `m4b`, `mp4`), raw AAC, FLAC, Ogg Vorbis and Opus, WAV,
    /// AIFF, WavPack, Monkey's Audio, Musepack, TTA, DSD (DSF and DFF), WMA,
    /// and the audio of Matroska and WebM files.
    public static let extensions: Set<String> = [
        "mp3", "mp2", "m4a", "m4b", "mp4", "aac", "flac", "ogg", "oga", "opus", "wav",
        "aif", "aiff", "aifc", "wv", "ape", "mpc", "mp+", "mpp", "tta", "dsf", "dff", "wma", "asf", "mka", "mkv", "webm",
    ]

    /// The formats as messages name them, where every format is meant.
    public static let formatList = "MP3, M4A/M4B, FLAC, Ogg Vorbis, Opus, WAV, AIFF, WavPack, Monkey's Audio, Musepack, TTA, DSD or WMA"

    public static func isAudio(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// `name` without its audio extension (a title for a file without one in its tags).
    public static func withoutAudioExtension(_ name: String) -> String {
        guard isAudio(name), let dot = name.lastIndex(of: ".") else { return name }
        return String(name[..<dot])
    }
}
