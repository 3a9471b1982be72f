import BookFormat
import Streams

/// Each queued file's tags for the front ends (the now-playing title, the
/// queue's titles, MPRIS metadata, the hook's variables, the socket's
/// snapshot), one reading per file shared by all of them (each kept a cache
/// of its own before), with the decoders' mapping (`AudioTags.read`). A
/// station's are what it sends: its `StreamTitle` as the title and its
/// `icy-name` as the album (`setStation`), nothing read from a file; its URL
/// until it has said anything.
final class TrackTagStore {
    private var known: [String: AudioTags] = [:]

    func tags(of path: String) -> AudioTags {
        if let tags = known[path] { return tags }
        // A station not heard yet is named by its URL.
        if case .url = StreamLocation.classify(path) { return AudioTags(title: path) }
        let read = AudioTags.read(path: path)
        known[path] = read
        return read
    }

    /// What station `url` now says it plays.
    func setStation(_ url: String, title: String?, name: String?) {
        known[url] = AudioTags(title: title ?? name ?? url, album: name)
    }
}
