#if canImport(Glibc)
import Glibc
#endif
import BookFormat
import InterludeCore
import MusicLibrary

/// One pass over the library folders into the index: every audio file is
/// stat'ed; new and changed ones (size or modification time, `ScanDiff`)
/// are read (`TrackReader`) and stored in batches, each batch one
/// transaction; files no longer found are dropped at the end. Problems (an
/// unreadable folder or file, a name that is not UTF-8, a symlink loop) are
/// reported once each and the scan goes on.
///
/// Runs on whichever thread calls `run`, with the index opened on that
/// thread: the command line's own, or the player's scan thread, never the
/// main loop or the audio threads.
package struct LibraryScanner {
    package struct Progress: Equatable, Sendable {
        package var found = 0
        package var read = 0
        package var unchanged = 0
        package var removed = 0
        package var failed = 0
        package var seconds = 0.0
        package var done = false

        package var filesPerSecond: Double { seconds > 0 ? Double(found) / seconds : 0 }
    }

    package let folders: [String]
    /// Rows per transaction: big enough that commits cost little (each
    /// commit ends a full-text segment that later merges cost), small enough
    /// that the pane sees new rows while a long first scan goes on.
    package var batchSize = 5000
    /// The first transaction's rows; each next batch is twice the one
    /// before, up to `batchSize`. The writer thread, the slower half of a
    /// first scan, then starts after 500 files rather than 5,000 and stores
    /// the last 5,000 after the walk ends only on scans long enough to
    /// amortize them (at 10,000 files, waiting for a first batch of 5,000
    /// and storing the second after the walk was most of the writer's lead
    /// lost; batches of 1,000 throughout were slower at 100,000).
    package var firstBatchSize = 500
    /// How often `progress` is called while files are found.
    package var progressInterval = 0.1
    package var shouldStop: () -> Bool = { false }
    /// How many files the index holds as the scan begins (for a progress bar).
    package var onStart: (Int) -> Void = { _ in }
    /// Each folder read, for the watcher to watch.
    package var onFolder: (String) -> Void = { _ in }

    package init(folders: [String]) { self.folders = folders }

    @discardableResult
    package func run(index: LibraryIndex, progress: (Progress) -> Void = { _ in },
             problem: (String) -> Void) throws(SQLiteError) -> Progress {
        let clock = ContinuousClock()
        let start = clock.now
        var state = Progress()
        try index.prepareForScan()
        let stamps = try index.stamps()
        onStart(stamps.count)
        var diff = ScanDiff(known: stamps)
        var batch: [LibraryIndex.StoredRow] = []
        var batchLimit = min(firstBatchSize, batchSize)
        let writer = LibraryIndexWriter(index: index)
        let threaded = writer.start()
        // The writer is joined on every way out, a thrown error included.
        var writerJoined = false
        defer { if !writerJoined { try? writer.finish() } }
        func store(_ rows: [LibraryIndex.StoredRow]) throws(SQLiteError) {
            if threaded { try writer.submit(rows) } else { try index.store(rows: rows) }
        }
        var reported: Set<String> = []
        var lastProgress = start
        func report(_ line: String) {
            if reported.insert(line).inserted { problem(line) }
        }
        func elapsed() -> Double { (clock.now - start).inSeconds }

        var visited: Set<FileIdentity> = []
        // Each folder to read, with the library folder it is in.
        var pending: [(directory: String, root: String)] = []
        for folder in folders {
            var info = stat()
            guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                report("library folder \(folder): \(stat(folder, &info) == 0 ? "not a folder" : Errno.current.message.lowercased()); skipped")
                continue
            }
            if visited.insert(FileIdentity(info)).inserted { pending.append((folder, folder)) }
        }
        while let (directory, root) = pending.popLast() {
            if shouldStop() { break }
            guard let stream = opendir(directory) else {
                report("cannot read folder \(directory): \(Errno.current.message.lowercased()); skipped")
                continue
            }
            onFolder(directory)
            var names: [String] = []
            while let entry = readdir(stream) {
                let bytes = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                    Array(raw.prefix { $0 != 0 })
                }
                if bytes.first == UInt8(ascii: ".") { continue }
                guard let name = String(validating: bytes, as: UTF8.self) else {
                    let shown = String(decoding: bytes, as: UTF8.self)
                    report("skipped \(directory)/\(shown): the name is not UTF-8 (rename it to index it)")
                    continue
                }
                names.append(name)
            }
            // Names are looked up relative to the open folder (fstatat,
            // openat): the kernel walks the folder's own path once, not once per file.
            let folder = dirfd(stream)
            defer { closedir(stream) }
            // Sorted and pushed in reverse: folders are visited in name order.
            var subfolders: [String] = []
            for name in names.sorted() {
                let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                var info = stat()
                guard fstatat(folder, name, &info, 0) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if visited.insert(FileIdentity(info)).inserted {
                        subfolders.append(path)
                    } else {
                        report("skipped \(path): a link to a folder already scanned (a loop)")
                    }
                case S_IFIFO, S_IFCHR, S_IFBLK, S_IFSOCK:
                    // Named like audio, but opening it could block the scan for good (a FIFO).
                    guard AudioFileNames.isAudio(name) else { break }
                    state.failed += 1
                    report("skipped \(path): is \(SpecialFileKind(mode: info.st_mode)?.rawValue ?? "a special file"), not an audio file")
                case S_IFREG where AudioFileNames.isAudio(name):
                    state.found += 1
                    let stamp = ScanDiff.Stamp(size: Int64(info.st_size),
                                               modifiedNanoseconds: FileTime.nanoseconds(seconds: Int64(info.st_mtim.tv_sec),
                                                                                                nanoseconds: Int64(info.st_mtim.tv_nsec)))
                    let change = diff.observe(path: path, stamp: stamp)
                    switch change {
                    case .unchanged:
                        state.unchanged += 1
                    case .new, .changed:
                        do {
                            var track = try TrackReader.read(path: path, stamp: stamp, folder: folder, name: name)
                            track.relativePath = String(path.dropFirst(root.hasSuffix("/") ? root.count : root.count + 1))
                            batch.append(LibraryIndex.StoredRow(track, isNew: change == .new))
                            state.read += 1
                        } catch {
                            state.failed += 1
                            report("skipped \(error.description)")
                        }
                    }
                    if batch.count >= batchLimit {
                        try store(batch)
                        batch.removeAll(keepingCapacity: true)
                        batchLimit = min(batchLimit * 2, batchSize)
                    }
                    let now = clock.now
                    if (now - lastProgress).inSeconds >= progressInterval {
                        lastProgress = now
                        state.seconds = elapsed()
                        progress(state)
                    }
                default:
                    continue
                }
            }
            pending.append(contentsOf: subfolders.reversed().map { ($0, root) })
        }
        if !batch.isEmpty { try store(batch) }
        writerJoined = true
        try writer.finish()
        if !shouldStop() {
            let gone = diff.gone
            try index.remove(paths: gone)
            state.removed = gone.count
        }
        state.seconds = elapsed()
        state.done = true
        progress(state)
        return state
    }
}

/// A file's device and inode: the same folder reached twice (a symlink back
/// up the tree, a bind mount) has the same identity.
private struct FileIdentity: Hashable {
    package let device: UInt64
    package let inode: UInt64
    package init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

extension Duration {
    package var inSeconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
