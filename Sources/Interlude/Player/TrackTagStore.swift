import AudioEngine
import BookFormat

/// Each queued file's tags for the front ends (the now-playing title, the
/// queue's titles, MPRIS metadata, the hook's variables, the socket's
/// snapshot), one reading per file shared by all of them: the decoder's,
/// recorded when the feeder opens the file to play it, or for a file not
/// opened yet (a queue entry further on) `AudioTags.read`'s, which the
/// decoder's replaces when it plays.
final class TrackTagStore {
    private var known: [String: AudioTags] = [:]

    func tags(of path: String) -> AudioTags {
        if let tags = known[path] { return tags }
        let read = AudioTags.read(path: path)
        known[path] = read
        return read
    }

    /// What the decoder that opened `path` reports.
    func record(_ decoder: any Decoder, path: String) {
        known[path] = decoder.tags
    }
}
