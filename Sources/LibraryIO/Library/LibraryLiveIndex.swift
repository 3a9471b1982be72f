#if canImport(Glibc)
import PlayerModel
import Glibc
#endif
import InterludeCore
import MusicLibrary
import Synchronization
import TUI

/// The library in the full-screen player: the main loop's own read
/// connection to the index (the pane's searches, `LibrarySource`), a scan
/// on a thread of its own (`LibraryScanThread`) whose progress and problems
/// reach the loop through an eventfd, and inotify watches on every library
/// folder, so files added, changed, moved or deleted while the player runs
/// start a rescan (incremental: it re-reads only what changed) a moment
/// after the last change. A `LoopSource`: everything here but the scan and
/// the watches it adds runs on the main thread, inside the loop's turn;
/// nothing touches the audio threads.
package final class LibraryLiveIndex: LibrarySource, LoopSource {
    package let settings: LibrarySettings
    /// The main loop's connection, opened at its first use (`openedIndex`).
    private var index: LibraryIndex?
    private var openFailure: String?
    package private(set) var problem: String?
    private let report: (String) -> Void
    private let notice: (String) -> Void
    /// Called on the main thread when the pane should search again (rows
    /// changed) or its status line changed.
    package var onChange: (_ status: String?, _ rowsChanged: Bool) -> Void = { _, _ in }

    private var recent = LibraryRecentSearches()
    private let shared = LibraryScanThread.Shared()
    private var scanning = false
    private var knownAtStart = 0
    private var rescanDue: ContinuousClock.Instant?
    private var lastReload = ContinuousClock.now
    private let inotify: Int32
    private var watched: [Int32: String] = [:]
    /// Watches the kernel removed (`IN_IGNORED`: the folder deleted or moved
    /// away) before the scan's thread, which added them, handed them over:
    /// not recorded. Descriptors are not reused within an inotify instance.
    private var removedUnknown: Set<Int32> = []
    /// Quiet time after the last change before rescanning: a copy of an album
    /// is many events; one rescan takes them all.
    package static let settleMilliseconds = 150

    /// `report`: the library's problems, each a line; `notice`: what the index
    /// says as it opens (built anew: none yet, damaged, another layout), which
    /// the player deals with itself.
    package init(settings: LibrarySettings, report: @escaping (String) -> Void, notice: @escaping (String) -> Void) {
        self.settings = settings
        self.report = report
        self.notice = notice
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if inotify < 0 { report("library: cannot watch the folders for changes (\(Errno.current.message)); rescan with 'interlude library scan'") }
    }

    /// The connection, opened the first time it is needed: after the first
    /// frame (`startFirstScan`), or by the pane's first search. Its open reads
    /// every page of the tracks table (60 ms at 100,000 tracks on an idle
    /// machine, three times that on a busy one), which the first frame does
    /// not need. Nil (the problem reported once, and shown in the pane) when
    /// the index cannot be opened.
    private func openedIndex() -> LibraryIndex? {
        if let index { return index }
        if let openFailure {
            problem = openFailure
            return nil
        }
        do {
            let opened = try LibraryIndex(path: settings.indexPath)
            // Said on the loop's next turn: an open from a search runs inside
            // the screen's key handling or layout, which a report would re-enter.
            if let notice = opened.notice { shared.post { $0.notices.append(notice) } }
            index = opened
            return opened
        } catch {
            openFailure = error.description
            problem = error.description
            shared.post { $0.failures.append(error.description) }
            return nil
        }
    }

    deinit {
        shared.stop()
        if inotify >= 0 { close(inotify) }
    }

    /// The whole library's artists for the unfiltered tree, read on a thread
    /// of its own at start-up and after each scan (`readCatalog`). None while
    /// the index is empty: during a first scan the tree is the search's
    /// first tracks, which show as the batches land.
    package var catalog: LibraryCatalog? { catalogRead.flatMap { $0.artists.isEmpty ? nil : $0 } }
    private var catalogRead: LibraryCatalog?
    private var catalogsAsked = 0
    private var catalogShown = 0
    /// The number of the read whose search table is in use.
    private var tableShown = 0
    /// The `data_version` the catalog shown was asked at (nil: unknown).
    private var shownVersion: Int64?
    /// The index's words (`SearchVocabulary`), read with the catalog, and
    /// this connection's `data_version` when it was asked for: used while
    /// nothing was committed since, so it holds every word a search can meet.
    private var vocabulary: (words: SearchVocabulary, version: Int64)?
    /// Every track's words in memory (`LibrarySearchTable`), read by the
    /// catalog's thread before the catalog, and the `data_version` it holds:
    /// the pane's searches without a sort go through it while nothing was
    /// committed since.
    private var searchTable: (search: LibrarySearchTable.Search, version: Int64)?
    /// The rows of the last search through the table, by id: a key that
    /// narrows the filter shows many of them again.
    private var lastRows: [Int64: LibraryTrack] = [:]
    private var versionsAsked: [Int: Int64] = [:]
    private var status: String?

    package func tracks(ids: [Int64]) -> [LibraryTrack] {
        guard let index = openedIndex() else { return [] }
        do {
            let found = try index.tracks(ids: ids)
            problem = nil
            return found
        } catch {
            problem = "cannot read the library index \(index.path): \(error.message)"
            return []
        }
    }

    /// Reads the catalog off the main loop: about a quarter of a second at
    /// 100,000 tracks, which on the main loop would be a frozen screen, and
    /// the search table before it and the words after it. Not again while
    /// nothing was committed since the read shown or on its way: a rescan
    /// that found nothing changed (the one at every start) reads none of it twice.
    private func readCatalog() {
        let version = try? openedIndex()?.dataVersion()
        if let version, version == shownVersion || (catalogsAsked > catalogShown && versionsAsked[catalogsAsked] == version) {
            return
        }
        catalogsAsked += 1
        if let version { versionsAsked[catalogsAsked] = version }
        LibraryCatalogThread.start(indexPath: settings.indexPath, generation: catalogsAsked, shared: shared)
    }

    package func tracks(matching query: LibraryQuery, sort: TrackSort?, limit: Int) -> [LibraryTrack] {
        guard let index = openedIndex() else { return [] }
        do {
            let version = try index.dataVersion()
            let words = vocabulary.flatMap { $0.version == version ? $0.words : nil }
            let found = try recent.tracks(for: query, sort: sort, limit: limit, version: version) { () throws(SQLiteError) in
                // A table of the first tracks only knows a search whose matches it holds all of.
                guard sort == nil, searchTable?.version == version, let ids = searchTable?.search.ids(matching: query, limit: limit),
                      searchTable?.search.table.isWhole == true || ids.count >= limit else {
                    return try index.search(query, sort: sort, limit: limit, columns: .shown, vocabulary: words)
                }
                let rows = try index.shownTracks(ids: ids, known: lastRows)
                // Every id is a row of the same version of the index.
                lastRows = rows.count == ids.count ? Dictionary(zip(ids, rows)) { first, _ in first } : [:]
                return rows
            }
            problem = nil
            return found
        } catch {
            problem = "cannot read the library index \(index.path): \(error.message)"
            return []
        }
    }

    private var startedFirstScan = false

    /// The start-up scan, once: called after every frame, it starts one after the first.
    package func startFirstScan() {
        guard !startedFirstScan else { return }
        startedFirstScan = true
        readCatalog()
        startScan()
    }

    /// Starts a scan now unless one is running.
    package func startScan() {
        guard !scanning else { return }
        scanning = true
        knownAtStart = 0
        rescanDue = nil
        // The thread's own descriptor for the same inotify instance: the
        // loop's may be closed (the player quitting) while the thread adds watches.
        let threadInotify = inotify >= 0 ? fcntl(inotify, F_DUPFD_CLOEXEC, 0) : -1
        LibraryScanThread.start(folders: settings.folders, indexPath: settings.indexPath, shared: shared,
                                inotify: threadInotify, watched: Set(watched.values))
    }

    // MARK: LoopSource

    package var pollRequests: [LoopPollRequest] {
        [LoopPollRequest(fd: shared.wake)] + (inotify >= 0 ? [LoopPollRequest(fd: inotify)] : [])
    }

    package var wakeWithinMilliseconds: Int? {
        guard let rescanDue, !scanning else { return nil }
        let left = rescanDue - .now
        // Rounded up: a wait cut to 0 ms before the time would turn the loop idly until it comes.
        return max(0, Int((left.inSeconds * 1000).rounded(.up)))
    }

    package func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        for request in ready where request.fd == inotify { drainInotify() }
        if ready.contains(where: { $0.fd == shared.wake }) {
            let update = shared.take()
            if update.known > 0 { knownAtStart = update.known }
            for line in update.notices { notice(line) }
            for line in update.failures { report(line) }
            for line in update.problems { report("library: " + line) }
            // Results of reads started in turn may land out of turn: the newest wins.
            if let read = update.searchTable,
               read.generation > tableShown || (read.generation == tableShown && searchTable?.search.table.isWhole == false) {
                tableShown = read.generation
                if let version = versionsAsked[read.generation] {
                    searchTable = (LibrarySearchTable.Search(table: read.table), version)
                    lastRows = [:]
                }
            }
            if let read = update.catalog, read.generation > catalogShown {
                catalogShown = read.generation
                catalogRead = read.catalog
                shownVersion = versionsAsked[read.generation]
                if let words = read.vocabulary, let version = versionsAsked[read.generation] {
                    vocabulary = (words, version)
                }
                versionsAsked = versionsAsked.filter { $0.key > read.generation }
                onChange(status, true)
            }
            if let progress = update.progress {
                if progress.done {
                    scanning = false
                    status = nil
                    for watch in update.watches where !removedUnknown.contains(watch.descriptor) {
                        watched[watch.descriptor] = watch.folder
                    }
                    removedUnknown = []
                    if update.watchesFull {
                        report("library: too many folders to watch (fs.inotify.max_user_watches); changes in some show after a restart")
                    }
                    onChange(nil, true)
                    lastReload = .now
                    readCatalog()
                } else {
                    // The pane shows rows as batches land, but a search a
                    // second is plenty while a first scan runs.
                    let reload = (ContinuousClock.now - lastReload).inSeconds >= 1
                    if reload { lastReload = .now }
                    status = Self.statusText(progress, known: knownAtStart)
                    onChange(status, reload)
                }
            }
            if let failure = update.failure {
                scanning = false
                status = nil
                report(failure)
                onChange(nil, false)
            }
        }
        if let rescanDue, !scanning, ContinuousClock.now >= rescanDue { startScan() }
    }

    /// "scanning [#####.....] 5,000 of 10,000 files, 2,400 files/s": a bar
    /// where the index knew how many files there were; a count on a first scan.
    package static func statusText(_ progress: LibraryScanner.Progress, known: Int) -> String {
        let rate = "\(Int(progress.filesPerSecond)) files/s"
        guard known > 0 else { return "scanning: \(progress.found) files, \(rate)" }
        let fraction = min(1, Double(progress.found) / Double(known))
        let filled = Int((fraction * 10).rounded(.down))
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 10 - filled) + "]"
        return "scanning \(bar) \(progress.found) of \(known) files, \(rate)"
    }

    private func drainInotify() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var changed = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            changed = true
            // The events name directories to forget (deleted, moved away); new
            // ones are watched after the rescan that finds them.
            var offset = 0
            while offset + 16 <= count {
                let (descriptor, mask, length) = buffer.withUnsafeBytes { raw in
                    (raw.load(fromByteOffset: offset, as: Int32.self), raw.load(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                if mask & UInt32(IN_IGNORED) != 0, watched.removeValue(forKey: descriptor) == nil {
                    removedUnknown.insert(descriptor)
                }
                offset += 16 + length
            }
        }
        if changed { rescanDue = .now + .milliseconds(Self.settleMilliseconds) }
    }
}

/// The scan's thread and what it hands the main loop.
package enum LibraryScanThread {
    package struct Update {
        package var progress: LibraryScanner.Progress?
        package var problems: [String] = []
        /// Lines of the main loop's own open of the index, said as they are.
        package var notices: [String] = []
        /// The index could not be opened.
        package var failures: [String] = []
        /// The folders the scan found, watched by the scan's thread (at 100,000
        /// tracks, thousands of `inotify_add_watch` calls: 167 ms of the main
        /// loop when it added them itself), for the loop's record.
        package var watches: [FolderWatch] = []
        /// Some folders could not be watched: the user's inotify watches ran out.
        package var watchesFull = false
        package var failure: String?
        /// How many files the index held when the scan began (0 on a first scan).
        package var known = 0
        /// A catalog read (`LibraryCatalogThread`), with the number of its
        /// request, and the words read after it (nil if that failed).
        package var catalog: (generation: Int, catalog: LibraryCatalog, vocabulary: SearchVocabulary?)?
        /// The search table read before that catalog, with the same number.
        package var searchTable: (generation: Int, table: LibrarySearchTable)?
    }

    /// Written by the scan thread, taken by the main loop after the eventfd wakes it.
    package final class Shared: Sendable {
        private let state = ThreadMailbox(empty: Update())
        private let stopping = Atomic<Bool>(false)

        package var wake: Int32 { state.wake }

        package func post(_ change: (inout Update) -> Void) { state.post(change) }

        package func take() -> Update { state.take() }

        package func stop() { stopping.store(true, ordering: .relaxed) }
        package var isStopping: Bool { stopping.load(ordering: .relaxed) }
    }

    /// A folder's inotify watch.
    package struct FolderWatch: Sendable, Equatable {
        package var descriptor: Int32
        package var folder: String
    }

    /// Scans `folders` into the index at `indexPath`, then watches every
    /// folder the scan found on `inotify` (none if it is -1) but those in
    /// `watched`. The thread owns `inotify` and closes it.
    package static func start(folders: [String], indexPath: String, shared: Shared, inotify: Int32 = -1,
                              watched: Set<String> = []) {
        let failure = BackgroundThread.start {
            // Below the main loop and far below the writer: a scan is background work.
            _ = nice(10)
            run(folders: folders, indexPath: indexPath, shared: shared, inotify: inotify, watched: watched)
            if inotify >= 0 { close(inotify) }
        }
        if let failure {
            if inotify >= 0 { close(inotify) }
            let message = "library: cannot start the scan thread (\(failure.message))"
            shared.post { $0.failure = message }
        }
    }

    private static func run(folders scanFolders: [String], indexPath: String, shared: Shared, inotify: Int32,
                            watched: Set<String>) {
        do {
            let index = try LibraryIndex(path: indexPath)
            defer { index.close() }
            var scanner = LibraryScanner(folders: scanFolders)
            scanner.onStart = { known in shared.post { $0.known = known } }
            scanner.shouldStop = { shared.isStopping }
            var folders: [String] = []
            scanner.onFolder = { folders.append($0) }
            let result = try scanner.run(index: index, progress: { progress in
                if !progress.done { shared.post { $0.progress = progress } }
            }, problem: { line in
                shared.post { $0.problems.append(line) }
            })
            let (watches, full) = watch(folders, on: inotify, except: watched, stopping: { shared.isStopping })
            shared.post {
                $0.progress = result
                $0.watches += watches
                $0.watchesFull = $0.watchesFull || full
            }
        } catch {
            shared.post { $0.failure = "library: scan stopped: \(error)" }
        }
    }
}

extension LibraryScanThread {
    /// Watches each of `folders` not in `except` for the changes that call
    /// for a rescan; the watches made, and whether some could not be
    /// (`ENOSPC`: the user's watches ran out). Stops early when `stopping`.
    package static func watch(_ folders: [String], on inotify: Int32, except: Set<String>, stopping: () -> Bool)
        -> (watches: [FolderWatch], full: Bool) {
        guard inotify >= 0 else { return ([], false) }
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF)
            | UInt32(IN_ONLYDIR)
        var watches: [FolderWatch] = []
        var full = false
        for folder in folders where !except.contains(folder) {
            if stopping() { break }
            let descriptor = inotify_add_watch(inotify, folder, mask)
            if descriptor >= 0 {
                watches.append(FolderWatch(descriptor: descriptor, folder: folder))
            } else if errno == ENOSPC {
                full = true
            }
        }
        return (watches, full)
    }
}

/// Reads the index's `LibraryCatalog` on a thread of its own, with its own
/// connection (WAL: it reads while a scan writes), and hands it to the main
/// loop through the scan's `Shared` (its eventfd wakes the loop).
package enum LibraryCatalogThread {
    /// The tracks of the table read first.
    package static let firstTracks = 5_000

    package static func start(indexPath: String, generation: Int, shared: LibraryScanThread.Shared) {
        let failure = BackgroundThread.start {
            guard !shared.isStopping else { return }
            do {
                let index = try LibraryIndex(path: indexPath)
                defer { index.close() }
                // The search table first, at the main loop's own priority: keys
                // typed until it is there search through the full-text table,
                // whose long prefixes cost tens of milliseconds before the words
                // are read (the table is 0.3 s of this thread's time at 100,000
                // tracks, over a second of wall time on a busy machine; the rest
                // a second and a half more). The first tracks' table comes in a
                // few milliseconds and answers every search that finds its
                // limit among them: the frequent words, whose long prefixes
                // are the full-text table's slow ones.
                do {
                    if let first = try index.searchTable(first: Self.firstTracks), !first.isWhole {
                        shared.post { $0.searchTable = (generation, first) }
                    }
                    if let table = try index.searchTable() { shared.post { $0.searchTable = (generation, table) } }
                } catch {
                    // Searches then go through the index's full-text table: slower, the same rows.
                    shared.post { $0.problems.append("cannot read the library's words for searching: \(error)") }
                }
                // The rest is background work, as the scan is.
                _ = nice(10)
                let catalog = try index.catalog()
                var vocabulary: SearchVocabulary?
                do { vocabulary = try index.vocabulary() } catch {
                    // Searches then take long prefixes as prefixes: slower, the same rows.
                    shared.post { $0.problems.append("cannot read the library's words: \(error)") }
                }
                shared.post { $0.catalog = (generation, catalog, vocabulary) }
            } catch {
                shared.post { $0.problems.append("cannot read the library's artists: \(error)") }
            }
        }
        // Without the thread the tree stays the search's first tracks, as during a first scan.
        if let failure {
            shared.post { $0.problems.append("cannot start the thread that reads the library's artists (\(failure.message))") }
        }
    }
}
