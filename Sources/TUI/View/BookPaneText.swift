import PlayerModel
/// The text of the audiobook panes' rows: kept apart from drawing so the
/// columns are tested on their own.
enum BookPaneText {
    /// ` Title — Author      42%  3:12:05 left`: the numbers right-aligned.
    static func bookRow(_ book: BookRow, width: Int, frame: Frame) -> String {
        let right = "\(pad(String(book.percent), to: 3))%  \(ScreenRenderer.clock(book.timeLeft)) left "
        var name = book.title
        if let author = book.author, !author.isEmpty { name += " — " + author }
        return fitted(" " + name, right: right, width: width, frame: frame)
    }

    /// `▸ 3. Title            12:30  4:05`: number, title, start, duration; ▸ marks the chapter heard now.
    static func chapterRow(_ chapter: BookInfo.Chapter, number: Int, count: Int, isCurrent: Bool, width: Int,
                           frame: Frame) -> String {
        let mark = isCurrent ? "▸" : " "
        let right = " \(ScreenRenderer.clock(Double(chapter.startMilliseconds) / 1000))  "
            + "\(pad(ScreenRenderer.clock(Double(chapter.durationMilliseconds) / 1000), to: 5)) "
        let left = "\(mark)\(pad(String(number), to: String(count).count)). \(chapter.title)"
        return fitted(left, right: right, width: width, frame: frame)
    }

    /// ` #2  1:02:03  the note`.
    static func bookmarkRow(_ mark: BookInfo.Mark) -> String {
        " #\(mark.id)  \(ScreenRenderer.clock(Double(mark.positionMilliseconds) / 1000))  \(mark.note ?? "")"
    }

    /// `left` truncated so that `right` ends at `width`.
    private static func fitted(_ left: String, right: String, width: Int, frame: Frame) -> String {
        let rightWidth = frame.width(of: right)
        guard width > rightWidth + 4 else { return frame.truncated(left, to: width) }
        let shown = frame.truncated(left, to: width - rightWidth - 1)
        let gap = width - rightWidth - frame.width(of: shown)
        return shown + String(repeating: " ", count: max(1, gap)) + right
    }

    private static func pad(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
