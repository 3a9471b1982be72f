import BookFormat
import Streams

/// Each queued file's tags for the front ends (the now-playing title, the
/// queue's titles, MPRIS metadata, the hook's variables, the socket's
/// snapshot), one reading per file shared by all of them (each kept a cache
/// of its own before), with the decoders' mapping (`AudioTags.read`). A
/// station's are what it sends: its `StreamTitle` as the title and its
/// `icy-name` as the album (`setStation`), nothing read from a file; its URL
/// until it has said anything.
package final class TrackTagStore {
    private var known: [String: AudioTags] = [:]

    package func tags(of path: String) -> AudioTags {
        if let tags = known[path] { return tags }
        // A station not heard yet is named by its URL.
        if case .url = StreamLocation.classify(path) { return AudioTags(title: path) }
        let read = AudioTags.read(path: path)
        known[path] = read
        return read
    }

    /// What station `url` now says it plays.
    /// A station that sends an empty `StreamTitle` (Icecast's before any
    /// title is set) or no name is shown by its name, else its URL, never as
    /// an empty title ("nothing playing" while it plays).
    package func setStation(_ url: String, title: String?, name: String?) {
        let title = title.flatMap { $0.isEmpty ? nil : $0 }
        let name = name.flatMap { $0.isEmpty ? nil : $0 }
        known[url] = AudioTags(title: title ?? name ?? url, album: name)
    }
}
