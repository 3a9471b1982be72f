#if canImport(Glibc)
import Glibc
#endif
import MusicLibrary

/// The scan's second thread: stores the batches the walk hands it (one
/// transaction each) while the walk goes on stat'ing and reading files, so a
/// first scan uses two cores (SQLite's full-text inserts were half of a
/// single-threaded scan's time). At most `depth` batches wait; the walk
/// blocks beyond that. The index is used by this thread alone from `start`
/// to `finish` (SQLite allows a connection on any one thread at a time).
package final class LibraryIndexWriter: @unchecked Sendable {
    package static let depth = 2

    // All below guarded by `lock` (a heap pthread mutex: its address must not move).
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queue: [[LibraryIndex.StoredRow]] = []
    private var failure: SQLiteError?
    private var closing = false

    private let index: LibraryIndex
    private var thread = pthread_t()
    private var running = false

    package init(index: LibraryIndex) {
        self.index = index
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(lock)
        changed.deallocate()
        lock.deallocate()
    }

    /// Starts the thread; false when it cannot be started (the caller stores itself).
    package func start() -> Bool {
        let context = Unmanaged.passRetained(self).toOpaque()
        guard pthread_create(&thread, nil, indexWriterEntry, context) == 0 else {
            Unmanaged<LibraryIndexWriter>.fromOpaque(context).release()
            return false
        }
        running = true
        return true
    }

    /// Queues a batch, waiting while `depth` are queued; throws the writer's
    /// failure, if it had one, so the walk stops.
    package func submit(_ batch: [LibraryIndex.StoredRow]) throws(SQLiteError) {
        pthread_mutex_lock(lock)
        while queue.count >= Self.depth && failure == nil { pthread_cond_wait(changed, lock) }
        let failed = failure
        if failed == nil { queue.append(batch) }
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
        if let failed { throw failed }
    }

    /// Waits for the queued batches to be stored and the thread to end.
    package func finish() throws(SQLiteError) {
        guard running else { return }
        pthread_mutex_lock(lock)
        closing = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
        pthread_join(thread, nil)
        running = false
        if let failure { throw failure }
    }

    fileprivate func loop() {
        while true {
            pthread_mutex_lock(lock)
            while queue.isEmpty && !closing { pthread_cond_wait(changed, lock) }
            if queue.isEmpty {
                pthread_mutex_unlock(lock)
                return
            }
            let batch = queue.removeFirst()
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(lock)
            do {
                try index.store(rows: batch)
            } catch {
                pthread_mutex_lock(lock)
                failure = error
                queue.removeAll()
                pthread_cond_broadcast(changed)
                pthread_mutex_unlock(lock)
                return
            }
        }
    }
}

private let indexWriterEntry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
    if let context { Unmanaged<LibraryIndexWriter>.fromOpaque(context).takeRetainedValue().loop() }
    return nil
}
