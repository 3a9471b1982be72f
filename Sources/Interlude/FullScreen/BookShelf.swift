import Core
import PlayerModel
import Books
import InterludeCore
import TUI

/// The books pane's list: every book with a state file under
/// `$XDG_STATE_HOME/interlude/books/`, and the book playing. A book is opened
/// once per run and kept, with the decoder's length estimate for files without
/// a Xing/Info header (no file is read whole for a percentage); the exact
/// length the player saved in the state file, when there is one, gives the
/// progress and the time left. The state files are read each time the list
/// is refreshed (when the pane is shown), and never changed here (a damaged
/// one is left alone and not listed).
final class BookShelf {
    let store: BookStateStore
    /// Books opened so far, by absolute path; nil when the path no longer opens.
    private var opened: [String: Book?] = [:]
    private(set) var rows: [BookRow] = []

    init(store: BookStateStore) { self.store = store }

    /// Remembers a book opened elsewhere (the one playing), so it is not opened again.
    func remember(_ book: Book) { opened[book.path] = book }

    /// The rows with the book playing first, from what was heard (the list may
    /// be older than the book playing, or have it at its saved place).
    func rows(playing snapshot: PlayerSnapshot) -> [BookRow] {
        guard let path = snapshot.bookPath, let book = opened[path] ?? nil else { return rows }
        let current = Self.row(book, position: Int((snapshot.elapsed * 1000).rounded()), speed: snapshot.speedFactor,
                               isCurrent: true)
        return [current] + rows.filter { $0.path != path }
    }

    /// Reads the state files again (all but the book playing, at `currentPath`).
    func refresh(currentPath: String?) {
        var listed: [(row: BookRow, updated: Int64)] = []
        for name in DirectoryListing.names(in: store.directory) ?? [] where name.hasSuffix(".json") {
            guard let bytes = try? StateFile(path: store.directory + "/" + name).read(),
                  let json = try? JSONParser.parse(bytes),
                  let state = try? BookStateFormat.decode(json),
                  let path = state.path, path != currentPath,
                  let book = book(at: path) else { continue }
            listed.append((Self.row(book, position: state.positionMilliseconds, speed: state.speed, isCurrent: false,
                                    savedDuration: state.durationMilliseconds),
                           state.updated.secondsSince1970))
        }
        // Most recently heard first.
        listed.sort { $0.updated != $1.updated ? $0.updated > $1.updated : $0.row.title < $1.row.title }
        rows = listed.map(\.row)
    }

    /// `savedDuration`: the exact length from the state file, which wins over
    /// the estimate `book` was opened with.
    static func row(_ book: Book, position: Int, speed: Double, isCurrent: Bool, savedDuration: Int? = nil) -> BookRow {
        let length = savedDuration ?? book.durationMilliseconds
        let heard = min(max(0, position), length)
        let percent = min(100, heard * 100 / max(1, length))
        let left = Double(length - heard) / 1000 / max(speed, 0.01)
        return BookRow(path: book.path, title: book.title, author: book.author, percent: percent,
                       timeLeft: left, isCurrent: isCurrent)
    }

    private func book(at path: String) -> Book? {
        if let known = opened[path] { return known }
        let book = try? BookOpener.open(path, exactLengths: false)
        opened[path] = book
        return book
    }
}
