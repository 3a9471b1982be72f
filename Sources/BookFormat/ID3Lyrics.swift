/// ID3v2's lyrics frames (ID3v2.4 §4.8, §4.9; 2.2's SLT and ULT arrive
/// under these names): USLT, untimed text, and SYLT, text in timed pieces.
enum ID3Lyrics {
    /// USLT: encoding, a three-letter language, a descriptor ending in its
    /// terminator, then the text (LRC text, as some taggers store, is read as LRC).
    static func unsynced(_ frame: ID3v2Frame) -> Lyrics? {
        let body = frame.body
        guard body.count > 4, let encoding = ID3v2TextEncoding(rawValue: body[0]),
              let textStart = EmbeddedFrames.endOfFirstString(body[4...], encoding: encoding) else { return nil }
        // Many writers end the text with its terminator: the text is what comes before it.
        let stored = body[textStart...].prefix(Lyrics.byteLimit + 4)
        let text = encoding.decode(encoding.split(stored).first ?? stored)
        return LRCLyrics.parse(text, source: "ID3 USLT")
    }

    /// SYLT: encoding, language, the time stamps' format (1: MPEG frames, 2:
    /// milliseconds), the content type, a descriptor ending in its
    /// terminator, then pieces: text ending in its terminator and a 32-bit
    /// big-endian time. nil for another format or a frame without pieces.
    static func synced(_ frame: ID3v2Frame) -> SyncedLyricsFrame? {
        let body = frame.body
        guard body.count > 6, let encoding = ID3v2TextEncoding(rawValue: body[0]),
              let unit = SyncedLyricsFrame.Unit(rawValue: body[4]),
              var index = EmbeddedFrames.endOfFirstString(body[6...], encoding: encoding) else { return nil }
        var pieces: [(stamp: Int, text: String)] = []
        var budget = LyricsBudget()
        while index < body.count, let end = EmbeddedFrames.endOfFirstString(body[index...], encoding: encoding),
              body.count - end >= 4 {
            let text = encoding.decode(body[index..<(end - encoding.terminatorWidth)])
            let stamp = body[end..<end + 4].reduce(0) { $0 << 8 | Int($1) }
            index = end + 4
            guard budget.admit(text) else { break }
            pieces.append((stamp, text))
        }
        guard !pieces.isEmpty else { return nil }
        return SyncedLyricsFrame(unit: unit, pieces: pieces, cut: budget.problem("ID3 SYLT"))
    }
}

/// A SYLT frame's pieces before their times are known in milliseconds: a
/// frame timed in MPEG frames needs the stream's frame duration, which the
/// tag reader finds after the tag.
struct SyncedLyricsFrame {
    enum Unit: UInt8 {
        case mpegFrames = 1
        case milliseconds = 2
    }

    let unit: Unit
    let pieces: [(stamp: Int, text: String)]
    /// The budget's problem line, when the frame held more than is kept.
    let cut: String?

    /// The lines, at `samplesPerFrame` and `sampleRate` for a frame timed in
    /// MPEG frames (nil when there is no MPEG frame to say). A piece whose
    /// text starts a new line ("\nword") starts one where any does (karaoke
    /// frames are timed by the syllable); otherwise each piece is a line.
    func lyrics(samplesPerFrame: Int?, sampleRate: Int?) -> Lyrics? {
        func milliseconds(_ stamp: Int) -> Int? {
            switch unit {
            case .milliseconds: return stamp
            case .mpegFrames:
                // A 32-bit stamp times 1152 times 1000 fits an Int many times over.
                guard let samplesPerFrame, let sampleRate, sampleRate > 0 else { return nil }
                return stamp * samplesPerFrame * 1000 / sampleRate
            }
        }
        let startsLine: (String) -> Bool = { $0.first == "\n" || $0.first == "\r" || $0.first == "\r\n" }
        let byLine = pieces.dropFirst().contains { startsLine($0.text) }
        var lines: [(order: Int, line: Lyrics.Line)] = []
        var late = 0
        for piece in pieces {
            guard let time = milliseconds(piece.stamp), time <= Lyrics.maximumMilliseconds else {
                late += 1
                continue
            }
            let text = piece.text.trimmingNewlines
            if byLine, !startsLine(piece.text), let last = lines.last {
                lines[lines.count - 1].line = Lyrics.Line(milliseconds: last.line.milliseconds, text: last.line.text + text)
            } else {
                lines.append((lines.count, Lyrics.Line(milliseconds: time, text: text.trimmingSpaces)))
            }
        }
        guard !lines.isEmpty else { return nil }
        let sorted = lines.sorted { $0.line.milliseconds != $1.line.milliseconds ? $0.line.milliseconds < $1.line.milliseconds : $0.order < $1.order }
        var problems: [String] = []
        if late > 0 { problems.append("ID3 SYLT: \(late) line\(late == 1 ? "" : "s") with a time past 100 hours, dropped") }
        if let cut { problems.append(cut) }
        return Lyrics(content: .synced(sorted.map(\.line)), source: "ID3 SYLT",
                      problem: problems.isEmpty ? nil : problems.joined(separator: "; "))
    }
}

extension String {
    var trimmingNewlines: String {
        var text = Substring(self)
        while let first = text.first, first.isNewline { text = text.dropFirst() }
        while let last = text.last, last.isNewline { text = text.dropLast() }
        return String(text)
    }
}
