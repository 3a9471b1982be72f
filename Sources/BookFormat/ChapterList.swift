/// The chapters of a tag in playing order, and any damage met on the way.
public struct ChapterList: Equatable, Sendable {
    public let chapters: [Chapter]
    /// The first problem in the tag; `chapters` holds what was read before it.
    public let damage: ID3v2Error?

    public static let empty = ChapterList(chapters: [], damage: nil)

    public init(chapters: [Chapter], damage: ID3v2Error?) {
        self.chapters = chapters
        self.damage = damage
    }

    /// Orders the CHAP frames as the top-level ordered CTOC lists them
    /// (following nested tables of contents), or, without one, by start
    /// time with the tag's order breaking ties. Chapters without a title are
    /// called "Chapter N", N their 1-based place in the list.
    public init(tag: ID3v2Tag) {
        var damage = tag.damage
        var chapterFrames: [ChapterFrame] = []
        var tables: [TableOfContentsFrame] = []
        for frame in tag.frames {
            do throws(ID3v2Error) {
                switch frame.id {
                case "CHAP":
                    chapterFrames.append(
                        try ChapterFrame(
                            body: frame.body, majorVersion: tag.header.majorVersion))
                case "CTOC":
                    tables.append(
                        try TableOfContentsFrame(
                            body: frame.body, majorVersion: tag.header.majorVersion))
                default:
                    break
                }
            } catch {
                damage = damage ?? error
            }
        }
        let ordered = ChapterOrder.arrange(chapterFrames, tables: tables)
        chapters = ordered.enumerated().map { index, frame in
            Chapter(
                title: frame.title ?? "Chapter \(index + 1)",
                startMilliseconds: Int(frame.startMilliseconds),
                endMilliseconds: Int(frame.endMilliseconds))
        }
        self.damage = damage
    }

    /// The chapters in a buffer that starts with an ID3v2 tag. Data without
    /// a tag has no chapters and no damage; an unreadable header is damage.
    public init(tagBytes: ArraySlice<UInt8>) {
        do {
            self.init(tag: try ID3v2Tag(bytes: tagBytes))
        } catch .noTag {
            self = .empty
        } catch {
            self.init(chapters: [], damage: error)
        }
    }
}
