/// A station's titles by the frame of the connection's time-shift timeline
/// where each arrived, so that the title shown is the one of the audio
/// heard: a title sent while the station was paused (an alarm, a call)
/// waits until its audio plays, and a seek back in the buffer shows the
/// title of that moment again.
///
/// The frame of a title is the live edge when it was read, which is at or a
/// little before its place in the audio (FFmpeg reads the ICY block with
/// the bytes ahead of the packet it demuxes), so a title is never late.
public struct StationTitleTimeline: Sendable {
    private var entries: [(frame: Int, title: String)] = []

    /// At most this many titles are kept (a station that changes its title
    /// at every block for the buffer's 30 minutes sends about 1,800): the
    /// oldest go first.
    public static let limit = 4096

    public init() {}

    /// `title` arrived at `frame`. Frames come in order from one connection;
    /// one earlier than the last (a new connection's) starts the timeline again.
    public mutating func arrived(_ title: String, atFrame frame: Int) {
        if let last = entries.last {
            if frame < last.frame {
                entries.removeAll()
            } else if last.title == title {
                return
            }
        }
        entries.append((frame, title))
        if entries.count > Self.limit { entries.removeFirst(entries.count - Self.limit) }
    }

    /// The title of the audio at `frame`: the last to arrive at or before it;
    /// nil before the first.
    public func title(atFrame frame: Int) -> String? {
        entries.last { $0.frame <= frame }?.title
    }

    /// Titles before `frame` that a later one replaced before it are no
    /// longer wanted (the buffer no longer holds their audio).
    public mutating func forget(before frame: Int) {
        guard let keep = entries.lastIndex(where: { $0.frame <= frame }), keep > 0 else { return }
        entries.removeFirst(keep)
    }

    /// A new connection: its frames start again from 0.
    public mutating func removeAll() { entries.removeAll() }

    public var count: Int { entries.count }
}
