/// The flat track view's orders: by any column, ascending or descending;
/// ties broken by artist, album, disc, track and path so the order is total
/// (the same rows always come in the same order).
public struct TrackSort: Equatable, Sendable {
    public enum Column: String, CaseIterable, Sendable {
        case artist, album, title, year, duration, genre, path, track
    }

    public var column: Column
    public var descending: Bool

    public init(column: Column = .artist, descending: Bool = false) {
        self.column = column
        self.descending = descending
    }

    /// The ORDER BY clause over the index's `tracks` table (columns as named
    /// there, qualified by `table` where the query joins another).
    public func orderBy(table: String = "tracks") -> String {
        let direction = descending ? "DESC" : "ASC"
        let t = table + "."
        let key: String = switch column {
        case .artist: "\(t)artist_key \(direction)"
        case .album: "\(t)album_key \(direction)"
        case .title: "\(t)title_key \(direction)"
        case .year: "\(t)year IS NULL, \(t)year \(direction)"
        case .duration: "\(t)duration IS NULL, \(t)duration \(direction)"
        case .genre: "\(t)genre_key \(direction)"
        case .path: "\(t)path \(direction)"
        case .track: "coalesce(\(t)disc_number, 1) \(direction), \(t)track_number IS NULL, \(t)track_number \(direction)"
        }
        return key + ", \(t)artist_key, \(t)album_key, coalesce(\(t)disc_number, 1), \(t)track_number IS NULL, "
            + "\(t)track_number, \(t)path"
    }

    /// The key the index stores for text columns: folded words, so the order
    /// ignores case and accents. Empty text sorts first.
    public static func key(_ text: String?) -> String { SearchText.indexed(text) }
}
