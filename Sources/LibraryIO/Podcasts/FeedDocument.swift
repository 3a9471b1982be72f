import Podcasts

/// A feed's bytes read into a `Feed`: libxml2's parser (`XMLReader`) under
/// podcastparser's rules (`FeedBuilder`). A web page where the feed was is
/// refused before any XML is read; a document that breaks off keeps the
/// episodes closed before the damage and says where (`Feed.damage`).
package enum FeedDocument {
    package static func parse(_ bytes: [UInt8], url: String) throws(FeedRefusal) -> Feed {
        let start = bytes.firstIndex { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
        guard var start else { throw .empty }
        // A UTF-8 byte order mark.
        if bytes[start...].starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        let head = String(decoding: bytes[start..<min(bytes.count, start + 64)], as: UTF8.self).lowercased()
        if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") { throw .htmlPage }
        var builder = FeedBuilder(url: url)
        let damage: XMLReader.Damage?
        do {
            damage = try XMLReader.read(bytes, url: url, into: &builder)
        } catch {
            throw .unreadable(line: 0, reason: error.description)
        }
        if let refusal = builder.refusal { throw refusal }
        if let damage, !builder.sawElement { throw .unreadable(line: damage.line, reason: damage.reason) }
        // Consumed: its episodes move into the feed, uncopied.
        return try (consume builder).finish(damage: damage.map { FeedDamage(line: $0.line, reason: $0.reason) })
    }
}
