import BookFormat

/// Each queued file's tags for the front ends (the now-playing title, the
/// queue's titles, MPRIS metadata, the hook's variables, the socket's
/// snapshot), one reading per file shared by all of them (each kept a cache
/// of its own before), with the decoders' mapping (`AudioTags.read`).
final class TrackTagStore {
    private var known: [String: AudioTags] = [:]

    func tags(of path: String) -> AudioTags {
        if let tags = known[path] { return tags }
        let read = AudioTags.read(path: path)
        known[path] = read
        return read
    }
}
