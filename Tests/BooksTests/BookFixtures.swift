import Foundation

/// Folders and files for book tests, in a fresh temporary directory each.
/// The files carry only an ID3v2.4 tag (UTF-8 text, CHAP frames): loading
/// a book reads tags, and lengths are supplied by the test as the decoder would.
final class BookFixtures {
    let root: String

    init() throws {
        root = NSTemporaryDirectory() + "books-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func folder(_ name: String) throws -> String {
        let path = root + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @discardableResult
    func file(_ path: String, text: [String: String] = [:], chapters: [(String, Int, Int)] = []) throws -> String {
        var frames: [UInt8] = []
        for (id, value) in text.sorted(by: { $0.key < $1.key }) { frames += Self.textFrame(id, value) }
        for (index, chapter) in chapters.enumerated() {
            var body = Array("ch\(index)".utf8) + [0]
            for value in [chapter.1, chapter.2, 0xFFFF_FFFF, 0xFFFF_FFFF] { body += Self.bigEndian(value) }
            body += Self.textFrame("TIT2", chapter.0)
            frames += Self.frame("CHAP", body)
        }
        // Not audio: a few bytes after the tag stand for the MPEG frames.
        let bytes = (frames.isEmpty ? [] : Array("ID3".utf8) + [4, 0, 0] + Self.syncsafe(frames.count) + frames)
            + [UInt8](repeating: 0x55, count: 64)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func textFrame(_ id: String, _ value: String) -> [UInt8] {
        frame(id, [3] + Array(value.utf8))
    }

    static func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + syncsafe(body.count) + [0, 0] + body
    }

    static func syncsafe(_ value: Int) -> [UInt8] {
        [UInt8((value >> 21) & 0x7F), UInt8((value >> 14) & 0x7F), UInt8((value >> 7) & 0x7F), UInt8(value & 0x7F)]
    }

    static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8((value >> 24) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
