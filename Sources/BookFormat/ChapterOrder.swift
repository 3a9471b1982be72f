/// Puts CHAP frames in playing order (Chapter Frame Addendum §4 and its
/// note on ordered tables of contents).
enum ChapterOrder {
    static func arrange(_ chapters: [ChapterFrame], tables: [TableOfContentsFrame]) -> [ChapterFrame] {
        // The first frame with an element ID wins: IDs must be unique, and a
        // duplicate is more likely a damaged copy than the real one.
        var chapterByID: [String: ChapterFrame] = [:]
        for chapter in chapters where chapterByID[chapter.elementID] == nil {
            chapterByID[chapter.elementID] = chapter
        }
        var tableByID: [String: TableOfContentsFrame] = [:]
        for table in tables where tableByID[table.elementID] == nil {
            tableByID[table.elementID] = table
        }

        if let root = tables.first(where: { $0.isTopLevel && $0.isOrdered }) {
            var visited: Set<String> = []
            var ordered: [ChapterFrame] = []
            collect(root, chapterByID: chapterByID, tableByID: tableByID, visited: &visited, into: &ordered)
            if !ordered.isEmpty { return ordered }
        }
        return chapters.enumerated()
            .sorted { ($0.element.startMilliseconds, $0.offset) < ($1.element.startMilliseconds, $1.offset) }
            .map(\.element)
    }

    /// Depth-first over the table's children, with an explicit stack rather
    /// than recursion: a damaged or hostile tag can chain thousands of tables,
    /// which must not exhaust the thread's stack. `visited` holds every
    /// element already taken, so a table that lists itself, a cycle of
    /// tables, or a chapter listed twice is taken once: the walk is bounded
    /// by the number of frames.
    private static func collect(
        _ root: TableOfContentsFrame, chapterByID: [String: ChapterFrame],
        tableByID: [String: TableOfContentsFrame], visited: inout Set<String>, into ordered: inout [ChapterFrame]
    ) {
        // Each entry is a table and the index of its next child to visit.
        var stack: [(table: TableOfContentsFrame, next: Int)] = [(root, 0)]
        visited.insert("CTOC:" + root.elementID)
        while let (table, next) = stack.last {
            guard next < table.childElementIDs.count else {
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            let child = table.childElementIDs[next]
            if let chapter = chapterByID[child] {
                if visited.insert("CHAP:" + child).inserted { ordered.append(chapter) }
            } else if let nested = tableByID[child], visited.insert("CTOC:" + child).inserted {
                stack.append((nested, 0))
            }
        }
    }
}
