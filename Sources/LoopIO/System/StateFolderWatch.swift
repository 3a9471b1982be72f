import PlayerModel
import Glibc
import InterludeCore

/// An inotify watch on the state folder (`$XDG_STATE_HOME/interlude/`), or
/// the data folder for `podcasts.json`: when another process replaces one of
/// the files named (`interlude alarm add` renames its new `alarms.json` over
/// the old, `interlude podcast add` its `podcasts.json`; an editor may write
/// it in place, or remove it), `changed` runs in the main loop's turn with that
/// name. A `LoopSource`, so it costs nothing while nothing changes, and a
/// change is seen in the turn after it (well within a second). The owner's
/// own saves are seen too; a store tells them from others' by content.
package final class StateFolderWatch: LoopSource {
    private let fd: Int32
    private let names: Set<String>
    private let changed: (String, any PlayerCore) -> Void

    /// Watches `folder` (made, 0700, when missing) for `names`; nil, said once,
    /// when inotify is not available (changes made elsewhere then show after a
    /// restart: `what`, "alarms", "podcasts", says what those are).
    package static func open(folder: String, names: Set<String>, what: String = "alarms", events: PlayerEventStream,
                     changed: @escaping (String, any PlayerCore) -> Void) -> StateFolderWatch? {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            events.error("cannot watch \(folder) (\(Errno.current.message)); \(what) changed elsewhere show after a restart")
            return nil
        }
        do throws(StateFileError) { try StateFile(path: folder + "/" + (names.first ?? "")).makeDirectory() } catch {
            close(fd)
            events.error("\(error.description); \(what) changed elsewhere show after a restart")
            return nil
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE) | UInt32(IN_ONLYDIR)
        guard inotify_add_watch(fd, folder, mask) >= 0 else {
            events.error("cannot watch \(folder) (\(Errno.current.message)); \(what) changed elsewhere show after a restart")
            close(fd)
            return nil
        }
        return StateFolderWatch(fd: fd, names: names, changed: changed)
    }

    private init(fd: Int32, names: Set<String>, changed: @escaping (String, any PlayerCore) -> Void) {
        self.fd = fd
        self.names = names
        self.changed = changed
    }

    deinit { close(fd) }

    package var pollRequests: [LoopPollRequest] { [LoopPollRequest(fd: fd)] }

    package func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        guard !ready.isEmpty else { return }
        // A burst (a rename after a write) is one change per name.
        for name in names.intersection(drain()).sorted() { changed(name, core) }
    }

    /// The names in the events queued now.
    private func drain() -> Set<String> {
        var found = Set<String>()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return found }
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then
            // the name, NUL-padded to `len`; the kernel writes whole events.
            var offset = 0
            while offset + 16 <= count {
                let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                let end = min(count, offset + 16 + length)
                let name = buffer[(offset + 16)..<end].prefix { $0 != 0 }
                if !name.isEmpty { found.insert(String(decoding: name, as: UTF8.self)) }
                offset += 16 + length
            }
        }
    }
}
