import PlayerModel
import TUI

/// How a picture reaches the terminal: a graphics protocol (the picture's
/// own pixels, written after the refresh over cells the frame keeps blank),
/// block symbols in colour (cells of the frame), or not at all.
package enum GraphicsProtocol: String, Equatable, Sendable {
    case kitty
    case sixel
    case iterm2
    case symbols
    case none

    /// What the config asks for, when it forces one (nil: ask the terminal).
    package init?(forced setting: CoverArtSetting, colors: PictureColorMode) {
        switch setting {
        case .auto: return nil
        case .kitty: self = .kitty
        case .sixel: self = .sixel
        case .iterm2: self = .iterm2
        case .symbols: self = colors == .none ? .none : .symbols
        case .none: self = .none
        }
    }
}

/// The terminal's answers to three graphics queries and the one every
/// terminal answers, sent together at start-up: kitty's graphics query (a
/// 1x1 picture, `a=q`: answered `OK` only by a terminal that draws kitty
/// graphics), XTVERSION (iTerm2 and WezTerm name themselves), the cell's size
/// in pixels (`CSI 16 t`) and last DA1 (`CSI c`), whose attribute 4 is
/// sixel. Terminals answer in order, so DA1's answer ends the wait; one that
/// answers nothing within the wait gets block symbols. `TERM` is never
/// looked at: many terminals call themselves xterm-256color.
package struct TerminalGraphicsReplies: Equatable {
    package static let query: [UInt8] = Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[>q\u{1B}[16t\u{1B}[c".utf8)

    /// What was read back, at most this many bytes.
    package static let limit = 4096
    package let bytes: [UInt8]

    package init(_ bytes: [UInt8]) { self.bytes = Array(bytes.prefix(Self.limit)) }

    /// DA1's answer, `ESC [ ? Ps ; ... c`, as its numbers; nil before it has come.
    package var deviceAttributes: [Int]? {
        guard let start = find([0x1B, 0x5B, 0x3F]) else { return nil }
        var numbers: [Int] = [], number = 0, digits = 0
        for byte in bytes[(start + 3)...] {
            switch byte {
            case 0x30...0x39:
                guard digits < 6 else { return nil }
                number = number * 10 + Int(byte - 0x30)
                digits += 1
            case 0x3B:
                numbers.append(number)
                (number, digits) = (0, 0)
            case 0x63:
                numbers.append(number)
                return numbers
            default: return nil
            }
        }
        return nil
    }

    package var isComplete: Bool { deviceAttributes != nil }

    /// What is no answer: the keys typed while the answers were read. An
    /// answer is what the key reader takes for a terminal's report
    /// (`TerminalReport`: CSI sequences, and ESC _, P, ], ^ and X strings),
    /// or the start of one cut off by the wait's end; an arrow key typed
    /// then is taken for one and lost.
    package var typedAhead: [UInt8] {
        var kept: [UInt8] = [], index = 0
        while index < bytes.count {
            guard bytes[index] == 0x1B else {
                kept.append(bytes[index])
                index += 1
                continue
            }
            var report = TerminalReport()
            var next = index + 1, step = TerminalReport.Step.more
            while step == .more, next < bytes.count {
                step = report.feed(UInt32(bytes[next]))
                next += 1
            }
            if case .notAReport = step {
                // The ESC is a key; what follows it is read on.
                kept.append(0x1B)
                index += 1
            } else if step == .more && !report.hasIntroducer {
                // A last ESC alone.
                kept.append(0x1B)
                index = next
            } else {
                index = next
            }
        }
        return kept
    }

    /// kitty's `ESC _ G i=31 ; OK`.
    package var speaksKitty: Bool { find(Array("\u{1B}_Gi=31;OK".utf8)) != nil }

    /// XTVERSION's `ESC P > | NAME`, naming iTerm2 or WezTerm (both draw iTerm2's pictures).
    package var speaksITerm2: Bool {
        guard let start = find(Array("\u{1B}P>|".utf8)) else { return false }
        let name = String(decoding: bytes[(start + 4)...].prefix(40), as: UTF8.self).lowercased()
        return name.hasPrefix("iterm2") || name.hasPrefix("wezterm")
    }

    /// `CSI 6 ; HEIGHT ; WIDTH t`: a cell's size in pixels, when answered and sensible (2-200).
    package var cellPixels: (width: Int, height: Int)? {
        guard let start = find(Array("\u{1B}[6;".utf8)) else { return nil }
        var numbers: [Int] = [], number = 0
        for byte in bytes[(start + 4)...].prefix(16) {
            switch byte {
            case 0x30...0x39: number = number * 10 + Int(byte - 0x30)
            case 0x3B: numbers.append(number); number = 0
            case 0x74:
                numbers.append(number)
                guard numbers.count == 2, (2...200).contains(numbers[0]), (2...200).contains(numbers[1]) else { return nil }
                return (numbers[1], numbers[0])
            default: return nil
            }
        }
        return nil
    }

    /// The protocol the answers point to: kitty, then iTerm2's, then sixel,
    /// else block symbols when the terminal has colours, else nothing.
    package func choice(colors: PictureColorMode) -> GraphicsProtocol {
        if speaksKitty { return .kitty }
        if speaksITerm2 { return .iterm2 }
        if deviceAttributes?.dropFirst().contains(4) == true { return .sixel }
        return colors == .none ? .none : .symbols
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
