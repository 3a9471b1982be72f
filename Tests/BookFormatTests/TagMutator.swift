import InterludeCore
@testable import BookFormat

/// Makes random valid tags with `TestTagWriter` and damages them the ways
/// real files get damaged: flipped bits, bytes inserted or lost, cut-off
/// downloads, and size fields overwritten with nonsense.
struct TagMutator {
    var random: SeededGenerator

    static let titles: [(String, ID3v2TextEncoding?)] = [
        ("Prologue", nil), ("Café über", .latin1), ("第一章 東京", nil), ("🎧 Kapitel", nil),
        ("ÿÿÿ", .latin1), ("", nil), (String(repeating: "Long title ", count: 20), nil),
    ]

    mutating func validTag() -> [UInt8] {
        var writer = TestTagWriter()
        writer.majorVersion = Bool.random(using: &random) ? 3 : 4
        writer.unsynchronise = Int.random(in: 0..<4, using: &random) == 0
        writer.extendedHeader = Int.random(in: 0..<4, using: &random) == 0
        writer.footer = writer.majorVersion == 4 && Int.random(in: 0..<6, using: &random) == 0
        writer.plainSizesIn24 = writer.majorVersion == 4 && Int.random(in: 0..<5, using: &random) == 0
        writer.padding = [0, 0, 4, 64].randomElement(using: &random)!
        let encodings: [ID3v2TextEncoding] = writer.majorVersion == 3
            ? [.latin1, .utf16WithBOM] : [.latin1, .utf16WithBOM, .utf16BigEndian, .utf8]

        let count = Int.random(in: 0...5, using: &random)
        var frames: [[UInt8]] = []
        var ids: [String] = []
        var start: UInt32 = 0
        for index in 0..<count {
            let (title, forced) = Self.titles.randomElement(using: &random)!
            var encoding = forced ?? encodings.randomElement(using: &random)!
            // Latin-1 cannot carry CJK or emoji.
            if encoding == .latin1 && title.unicodeScalars.contains(where: { $0.value > 0xFF }) {
                encoding = .utf16WithBOM
            }
            let end = start + UInt32.random(in: 0...4_000_000, using: &random)
            let id = "ch\(index)"
            ids.append(id)
            frames.append(writer.chapter(id, start: start, end: end, title: Bool.random(using: &random) ? title : nil, encoding: encoding))
            start = end
        }
        if Bool.random(using: &random) {
            let order = Bool.random(using: &random) ? ids : ids.shuffled(using: &random)
            frames.insert(writer.tableOfContents("toc", children: order, title: "Contents"), at: 0)
        }
        if Bool.random(using: &random) { frames.append(writer.text("TIT2", "Book", encodings.randomElement(using: &random)!)) }
        frames.shuffle(using: &random)
        return writer.tag(frames)
    }

    /// One to three damages of random kinds.
    mutating func mutate(_ tag: [UInt8]) -> [UInt8] {
        var bytes = tag
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            switch Int.random(in: 0..<6, using: &random) {
            case 0:  // bit flips
                for _ in 0..<Int.random(in: 1...8, using: &random) where !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= 1 << UInt8.random(in: 0...7, using: &random)
                }
            case 1:  // inserted bytes
                let at = Int.random(in: 0...bytes.count, using: &random)
                bytes.insert(contentsOf: (0..<Int.random(in: 1...16, using: &random)).map { _ in interestingByte() }, at: at)
            case 2:  // lost bytes
                guard !bytes.isEmpty else { continue }
                let at = Int.random(in: 0..<bytes.count, using: &random)
                bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...16, using: &random)))
            case 3:  // truncation
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
            case 4:  // the tag's own size field
                guard bytes.count >= 10 else { continue }
                for index in 6..<10 { bytes[index] = interestingByte() }
            default:  // a frame size field: four bytes after something that looks like a frame ID
                let starts = frameStarts(bytes)
                guard let at = starts.randomElement(using: &random), at + 8 <= bytes.count else { continue }
                for index in (at + 4)..<(at + 8) { bytes[index] = interestingByte() }
            }
        }
        return bytes
    }

    /// Boundary values that size and flag fields are most sensitive to.
    private mutating func interestingByte() -> UInt8 {
        [0x00, 0x01, 0x7F, 0x80, 0xFF, 0xFE, 0x0A, UInt8.random(in: 0...255, using: &random)].randomElement(using: &random)!
    }

    /// Offsets where four bytes of A-Z/0-9 start: candidate frame headers.
    /// A plain loop, because this runs 100,000 times in a debug build.
    private func frameStarts(_ bytes: [UInt8]) -> [Int] {
        var starts: [Int] = []
        var run = 0
        for index in bytes.indices {
            let byte = bytes[index]
            let isIDByte = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            run = isIDByte ? run + 1 : 0
            if run >= 4 && index >= 13 { starts.append(index - 3) }
        }
        return starts
    }
}
