/// LRC, the lyrics format of `NAME.lrc` beside a file (and of many `LYRICS`
/// comments): each line starts with one or more time tags, `[mm:ss]`,
/// `[mm:ss.xx]`, `[mm:ss.xxx]` (or `[mm:ss:xx]`), then its text. A line with
/// several tags is sung several times (a chorus), so it is placed at each;
/// the lines are sorted by time whatever the file's order. `[offset:+/-ms]`
/// moves every line (a positive offset shows them sooner); the other
/// metadata tags (`[ar:]`, `[ti:]`, `[al:]`, `[by:]`, `[length:]`, ...) are
/// ignored, and so are enhanced LRC's word times (`<mm:ss.xx>`) inside a
/// line. A time that is no time (`[1:75.00]`, `[ab:cd]`) or lies beyond 100
/// hours is dropped with its line, and the first one named in the one
/// problem line. Text with no time tag at all is untimed lyrics.
public enum LRCLyrics {
    /// nil for text without a lyric line.
    public static func parse(_ text: String, source: String) -> Lyrics? {
        var timed: [(order: Int, line: Lyrics.Line)] = []
        var untimed: [String] = []
        var offset = 0
        var firstBad: (line: Int, tag: String)?
        var badCount = 0
        var budget = LyricsBudget()
        var lineNumber = 0
        func note(_ tag: Substring) {
            badCount += 1
            if firstBad == nil { firstBad = (lineNumber, "[" + String(tag.prefix(40)) + "]") }
        }
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            var rest = rawLine.drop { $0 == " " || $0 == "\t" }
            var times: [Int] = []
            var sawTag = false
            while rest.first == "[", let close = rest.firstIndex(of: "]") {
                let tag = rest[rest.index(after: rest.startIndex)..<close]
                let isMetadata = tag.firstIndex(of: ":").map { colon in
                    !tag[..<colon].isEmpty && tag[..<colon].allSatisfy { $0.isASCII && $0.isLetter }
                } ?? false
                // "[Chorus]" and the like are text, not tags.
                guard isMetadata || tag.first.map({ $0.isNumber || $0 == "-" || $0 == "+" }) == true else { break }
                rest = rest[rest.index(after: close)...].drop { $0 == " " || $0 == "\t" }
                sawTag = true
                if isMetadata {
                    if let value = metadataValue(tag, key: "offset") {
                        if let milliseconds = offsetMilliseconds(value) { offset = milliseconds } else { note(tag) }
                    }
                } else if let time = milliseconds(tag) {
                    times.append(time)
                } else {
                    note(tag)
                }
            }
            let lyric = withoutWordTimes(rest)
            if times.isEmpty {
                // A metadata line, or a line whose only tags were bad: not lyrics.
                if !sawTag, budget.admit(lyric) { untimed.append(lyric) }
                continue
            }
            for time in times where budget.admit(lyric) {
                timed.append((timed.count, Lyrics.Line(milliseconds: time, text: lyric)))
            }
        }
        var problems: [String] = []
        if let firstBad {
            let more = badCount > 1 ? " (and \(badCount - 1) more)" : ""
            problems.append("\(source) line \(firstBad.line): bad time \(firstBad.tag), dropped\(more)")
        }
        if let cut = budget.problem(source) { problems.append(cut) }
        let problem = problems.isEmpty ? nil : problems.joined(separator: "; ")
        if !timed.isEmpty {
            // Stable: lines of one time keep the file's order.
            let sorted = timed.map { entry in
                (entry.order, Lyrics.Line(milliseconds: min(max(0, entry.line.milliseconds - offset), Lyrics.maximumMilliseconds),
                                          text: entry.line.text))
            }.sorted { $0.1.milliseconds != $1.1.milliseconds ? $0.1.milliseconds < $1.1.milliseconds : $0.0 < $1.0 }
            return Lyrics(content: .synced(sorted.map(\.1)), source: source, problem: problem)
        }
        // Blank lines part stanzas, but none before the first or after the last.
        while untimed.last?.isEmpty == true { untimed.removeLast() }
        untimed = Array(untimed.drop { $0.isEmpty })
        // Text that names times it could not read is a damaged LRC, not untimed lyrics.
        guard !untimed.isEmpty else {
            return problem.map { Lyrics(content: .synced([]), source: source, problem: $0) }
        }
        return Lyrics(content: .unsynced(untimed), source: source, problem: problem)
    }

    /// A time tag's milliseconds: `m:ss`, `m:ss.f` with one to three digits
    /// of fraction, or `m:ss:ff` (hundredths); minutes of up to four digits,
    /// seconds below 60. nil for anything else or past 100 hours.
    static func milliseconds(_ tag: Substring) -> Int? {
        let parts = tag.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, let minutes = digits(parts[0], at: 1...4) else { return nil }
        var secondsText = parts[1]
        var fractionText: Substring?
        if parts.count == 3 {
            fractionText = parts[2]
        } else if let dot = secondsText.firstIndex(of: ".") {
            fractionText = secondsText[secondsText.index(after: dot)...]
            secondsText = secondsText[..<dot]
        }
        guard let seconds = digits(secondsText, at: 1...2), seconds < 60 else { return nil }
        var fraction = 0
        if let fractionText {
            guard let value = digits(fractionText, at: 1...3) else { return nil }
            fraction = value * [1, 100, 10, 1][fractionText.count]
        }
        let total = (minutes * 60 + seconds) * 1000 + fraction
        return total <= Lyrics.maximumMilliseconds ? total : nil
    }

    /// The value of a `[key:value]` tag of that key (in any case).
    static func metadataValue(_ tag: Substring, key: String) -> Substring? {
        guard let colon = tag.firstIndex(of: ":"), tag[..<colon].lowercased() == key else { return nil }
        return tag[tag.index(after: colon)...]
    }

    /// `[offset:]`'s signed milliseconds, within an hour either way.
    static func offsetMilliseconds(_ value: Substring) -> Int? {
        let text = value.trimmingPrefix(" ")
        let negative = text.first == "-"
        let number = text.first == "-" || text.first == "+" ? text.dropFirst() : text[...]
        guard let magnitude = digits(number.prefix { $0 != " " }, at: 1...7), magnitude <= 3_600_000 else { return nil }
        return negative ? -magnitude : magnitude
    }

    /// The number of a run of ASCII digits whose length is in `lengths`.
    static func digits(_ text: Substring, at lengths: ClosedRange<Int>) -> Int? {
        guard lengths.contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// A line's text with enhanced LRC's `<mm:ss.xx>` word times taken out, trimmed.
    static func withoutWordTimes(_ text: Substring) -> String {
        var result = ""
        var rest = text
        while let open = rest.firstIndex(of: "<") {
            result += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: ">"), milliseconds(after[..<close]) != nil {
                rest = after[after.index(after: close)...]
            } else {
                result.append("<")
                rest = after
            }
        }
        result += rest
        return result.trimmingSpaces
    }
}
