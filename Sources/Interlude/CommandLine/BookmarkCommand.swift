import PlayerModel
import LoopIO
import Core
import Books
import InterludeCore

/// `interlude bookmark add|list|delete BOOK ...`: bookmarks kept in the
/// book's state file; `interlude play BOOK --bookmark N` jumps to one.
public enum BookmarkCommand {
    static let usage = """
    usage: interlude bookmark add BOOK [--at TIME] [--note TEXT]
           interlude bookmark list BOOK [--json]
           interlude bookmark delete BOOK N

    Bookmarks of a book (a folder of audio files or a file with chapters), kept with
    its position in $XDG_STATE_HOME/interlude/books/.
      add       marks TIME (h:mm:ss, m:ss or seconds; default: where the book
                was left) with an optional note, and prints its number
      list      number, time, chapter and note of each bookmark, in book order
      delete    removes bookmark N (numbers are never reused)
    'interlude play BOOK --bookmark N' plays from bookmark N.
    """

    /// The options of every subcommand (add takes --at and --note, list --json).
    static let spec = ArgumentSpec(command: "bookmark", valued: ["--at", "--note"], flags: ["--json"])

    public static func run(_ arguments: [String]) -> Int32 {
        guard let subcommand = arguments.first, !["--help", "-h"].contains(subcommand) else {
            if arguments.isEmpty {
                writeStandardError(usage + "\n")
                return 2
            }
            writeStandardOutput(usage + "\n")
            return 0
        }
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentSpec(command: "bookmark \(subcommand)", valued: spec.valued, flags: spec.flags)
                .parse(Array(arguments.dropFirst()))
        } catch {
            writeStandardError("interlude \(error.message)\n")
            return 2
        }
        if parsed.has("--help") || parsed.has("-h") {
            writeStandardOutput(usage + "\n")
            return 0
        }
        func usageError(_ message: String) -> Int32 {
            writeStandardError("interlude bookmark \(subcommand): \(message) (see 'interlude bookmark --help')\n")
            return 2
        }
        let expected = subcommand == "delete" || subcommand == "rm" ? 2 : 1
        guard ["add", "list", "delete", "rm"].contains(subcommand) else {
            return usageError("unknown subcommand (add, list, delete)")
        }
        guard parsed.positionals.count == expected else {
            return usageError(expected == 2 ? "give the book and a bookmark number" : "give one book")
        }
        let book: Book
        do { book = try BookOpener.open(parsed.positionals[0]) } catch {
            writeStandardError("interlude: \(error.description)\n")
            return 1
        }
        let store = BookStateStore(directories: XDGDirectories(environment: ProcessEnvironment.current()))
        let now = SystemClock().wallNow
        /// Read, change, write under the state file's lock: a player of the
        /// book may be saving its place at the same moment.
        func update(_ change: (inout BookState) -> Void) -> Bool {
            let updated = store.update(book.id, now: now, fallback: .start) { state in
                change(&state)
                state.path = book.path
            }
            if let problem = updated.problem { writeStandardError("interlude: \(problem)\n") }
            if let failure = updated.failure {
                writeStandardError("interlude: \(failure.description)\n")
                return false
            }
            return true
        }

        switch subcommand {
        case "add":
            var at: Int?
            if let text = parsed.value("--at") {
                guard let value = BookTimeText.parse(text) else {
                    return usageError("--at '\(text)' is not \(BookTimeText.accepts)")
                }
                guard value <= book.durationMilliseconds else {
                    return usageError("--at \(text) is past the end of the book (\(BookTimeText.format(book.durationMilliseconds)))")
                }
                at = value
            }
            if let note = parsed.value("--note"), let problem = TextLimit.note.problem(note) {
                return usageError("--note: \(problem)")
            }
            var added: Bookmark?
            guard update({ state in
                added = state.addBookmark(at: at ?? state.resumePosition(in: book), note: parsed.value("--note"), now: now)
            }), let mark = added else { return 1 }
            writeStandardOutput("bookmark \(mark.id) at \(describe(mark, in: book))\n")
        case "list":
            let loaded = store.load(book.id, now: now)
            if let problem = loaded.problem { writeStandardError("interlude: \(problem)\n") }
            let state = loaded.state
            if parsed.has("--json") {
                var items: [JSONValue] = []
                for mark in state.bookmarks {
                    var item: [String: JSONValue] = [
                        "id": .integer(Int64(mark.id)),
                        "position": .double(Double(mark.positionMilliseconds) / 1000),
                        "chapter": .string(book.chapter(at: mark.positionMilliseconds).title),
                    ]
                    if let note = mark.note { item["note"] = .string(note) }
                    items.append(.object(item))
                }
                writeStandardOutput(JSONWriter().prettyPrinted(.array(items)) + "\n")
            } else if state.bookmarks.isEmpty {
                writeStandardOutput("no bookmarks in \(book.title)\n")
            } else {
                for mark in state.bookmarks { writeStandardOutput("\(mark.id)  \(describe(mark, in: book))\n") }
            }
        default:
            guard let id = BookPlayOptions.bookmarkRange.parse(parsed.positionals[1]) else {
                return usageError("'\(parsed.positionals[1])' is not a bookmark number (\(BookPlayOptions.bookmarkRange.accepts))")
            }
            var deleted = false
            guard update({ state in deleted = state.deleteBookmark(id: id, now: now) }) else { return 1 }
            guard deleted else {
                writeStandardError("interlude: \(book.title) has no bookmark \(id) (see 'interlude bookmark list')\n")
                return 1
            }
            writeStandardOutput("deleted bookmark \(id)\n")
        }
        return 0
    }

    /// `1:02:03  Chapter 5  note`.
    static func describe(_ mark: Bookmark, in book: Book) -> String {
        var text = "\(BookTimeText.format(mark.positionMilliseconds))  \(book.chapter(at: mark.positionMilliseconds).title)"
        if let note = mark.note { text += "  \(note)" }
        return text
    }
}
