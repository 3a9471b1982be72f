import BookFormat

/// Title, artist and album from a file's ID3v2 tag (TIT2, TPE1, TALB), or
/// for the formats beyond MP3 from their own tags (`ContainerTags`: FLAC's and
/// Ogg's Vorbis comments, MP4's atoms).
public struct TrackTags: Equatable, Sendable {
    public var title: String?
    public var artist: String?
    public var album: String?

    public init(title: String? = nil, artist: String? = nil, album: String? = nil) {
        self.title = title
        self.artist = artist
        self.album = album
    }

    /// The tags of the file at `path`; empty when it has none or they cannot be read.
    public static func read(path: String) -> TrackTags {
        if let cue = CueTrackPath(path), case .success(let track) = CueTrack.resolve(cue) {
            return TrackTags(title: track.title, artist: track.performer, album: track.album)
        }
        guard let bytes = try? TagFileReader.tagBytes(atPath: path), !bytes.isEmpty,
              let tag = try? ID3v2Tag(bytes: bytes) else {
            guard let tags = ContainerTags.read(path: path) else { return TrackTags() }
            return TrackTags(title: tags.title, artist: tags.artist, album: tags.album)
        }
        func text(_ id: String) -> String? {
            guard let frame = tag.frames(withID: id).first, let text = try? ID3v2TextFrame(body: frame.body).text,
                  !text.isEmpty else { return nil }
            return text
        }
        return TrackTags(title: text("TIT2"), artist: text("TPE1"), album: text("TALB"))
    }

    /// The file name without folder and audio extension, for files without a title.
    public static func displayName(ofPath path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        name = AudioFileNames.withoutAudioExtension(name)
        return name
    }
}
