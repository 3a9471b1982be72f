import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The PIDs of children the test process started and has not reaped yet.
///
/// When the test process exits (normally, after failures, or on SIGINT/SIGTERM/SIGHUP),
/// every child still registered gets SIGTERM, then SIGKILL: a daemon such as the private
/// PulseAudio server never outlives the run. Only recorded PIDs are ever signalled.
/// `BackgroundProcess` registers and unregisters by itself; nothing else needs to call it.
enum ChildRegistry {
    private static let capacity = 256
    // A plain C array so the signal handler can read it without locks or allocation.
    // A slot is 0 when free. Writers take `lock`; the handler only reads.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<pid_t> = {
        let pointer = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        pointer.initialize(repeating: 0, count: capacity)
        return pointer
    }()
    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed = false

    static func add(_ pid: pid_t) {
        lock.lock(); defer { lock.unlock() }
        installIfNeeded()
        for index in 0..<capacity where slots[index] == 0 {
            slots[index] = pid
            return
        }
    }

    static func remove(_ pid: pid_t) {
        lock.lock(); defer { lock.unlock() }
        for index in 0..<capacity where slots[index] == pid {
            slots[index] = 0
        }
    }

    /// Called with `lock` held.
    private static func installIfNeeded() {
        guard !installed else { return }
        installed = true
        atexit { ChildRegistry.killAll() }
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signalNumber in
                ChildRegistry.killAll()
                // Die of the same signal, as the runner expects.
                signal(signalNumber, SIG_DFL)
                raise(signalNumber)
            }
            sigemptyset(&action.sa_mask)
            var previous = sigaction()
            sigaction(signalNumber, nil, &previous)
            // Respect a runner that ignores the signal on purpose.
            // SIG_IGN is the handler value 1, which Swift cannot compare as a function.
            if let handler = previous.__sigaction_handler.sa_handler, unsafeBitCast(handler, to: Int.self) == 1 { continue }
            sigaction(signalNumber, &action, nil)
        }
    }

    /// Async-signal-safe: only `kill`, `waitpid` and `nanosleep`.
    private static func killAll() {
        var any = false
        for index in 0..<capacity where slots[index] > 0 {
            kill(slots[index], SIGTERM)
            any = true
        }
        guard any else { return }
        // Give daemons up to a second to exit cleanly, then make sure.
        for _ in 0..<100 {
            var alive = false
            for index in 0..<capacity where slots[index] > 0 {
                if waitpid(slots[index], nil, WNOHANG) == 0 { alive = true } else { slots[index] = 0 }
            }
            if !alive { return }
            var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            nanosleep(&pause, nil)
        }
        for index in 0..<capacity where slots[index] > 0 {
            kill(slots[index], SIGKILL)
            waitpid(slots[index], nil, 0)
            slots[index] = 0
        }
    }
}

/// The per-run scratch directory: `$TMPDIR/interlude-tests.XXXXXX`, mode 700, created on
/// first use and removed when the process exits, unless `INTERLUDE_KEEP_TEMP=1` (then
/// its path is printed to stderr so failures can be inspected). Directories left by runs
/// that were killed outright are reclaimed by the next run (see `reclaimAbandoned`).
public enum ScratchFiles {
    /// The directory path. Fixtures, captures and the PulseAudio runtime live below it.
    public static var directory: String { state.path }

    /// A fresh, empty subdirectory of `directory` (mode 700).
    public static func makeDirectory(_ prefix: String) -> String {
        let path = "\(directory)/\(prefix)-\(UUID().uuidString.prefix(8))"
        mkdir(path, 0o700)
        return path
    }

    private final class State: Sendable {
        let path: String
        init() {
            let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
            var template = Array("\(base)/interlude-tests.XXXXXX".utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            precondition(made != nil, "cannot create a scratch directory under \(base)")
            path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            _ = FileManager.default.createFile(atPath: "\(path)/owner.pid", contents: Data("\(getpid())\n".utf8))
            if ProcessInfo.processInfo.environment["INTERLUDE_KEEP_TEMP"] == "1" {
                _ = FileManager.default.createFile(atPath: "\(path)/keep", contents: Data())
                FileHandle.standardError.write(Data("TestSupport: keeping scratch files in \(path)\n".utf8))
            } else {
                atexit { ScratchFiles.removeAtExit() }
            }
            ScratchFiles.reclaimAbandoned(in: base, except: path)
        }
    }

    /// Cleans up after earlier runs that died without their exit handlers (SIGKILL, a
    /// crash): for each `interlude-tests.*` directory whose owner process is gone and that
    /// is not marked `keep`, stops the sound-server processes recorded in its `pulse-*/daemon.pid`
    /// and `pipewire-*/daemon.pid`
    /// (only if that PID's environment names that very runtime directory, so a reused PID
    /// is never hit), then deletes the directory.
    static func reclaimAbandoned(in base: String, except current: String) {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: base) else { return }
        for entry in entries where entry.hasPrefix("interlude-tests.") {
            let directory = "\(base)/\(entry)"
            guard directory != current, !manager.fileExists(atPath: "\(directory)/keep"),
                  let owner = readPID("\(directory)/owner.pid") else { continue }
            if kill(owner, 0) == 0 || errno == EPERM { continue }  // its owner still runs
            for sub in (try? manager.contentsOfDirectory(atPath: directory)) ?? []
            where sub.hasPrefix("pulse-") || sub.hasPrefix("pipewire-") {
                let runtime = "\(directory)/\(sub)"
                for daemon in readPIDs("\(runtime)/daemon.pid") {
                    guard let environ = manager.contents(atPath: "/proc/\(daemon)/environ"),
                          environ.split(separator: 0).contains(Data("XDG_RUNTIME_DIR=\(runtime)".utf8)) else { continue }
                    kill(daemon, SIGTERM)
                    for _ in 0..<100 where kill(daemon, 0) == 0 { usleep(10_000) }
                    if kill(daemon, 0) == 0 { kill(daemon, SIGKILL) }
                }
            }
            try? manager.removeItem(atPath: directory)
        }
    }

    /// The PIDs of a `daemon.pid`, one a line (PulseAudio's one daemon, PipeWire's four processes).
    private static func readPIDs(_ path: String) -> [pid_t] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { pid_t($0.trimmingCharacters(in: .whitespaces)) }
    }

    private static func readPID(_ path: String) -> pid_t? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static let state = State()
    private static func removeAtExit() {
        // atexit handlers run in reverse order of registration and this one is registered
        // before the first child is spawned, so children are already gone.
        stopPlayerServices(below: state.path)
        try? FileManager.default.removeItem(atPath: state.path)
    }

    /// Player services the binary under test started in the background (a
    /// screen, `alarm add`, `remote`): each records its pid in
    /// `RUNTIME/interlude/service.pid`. Each found below `directory` is
    /// stopped by that pid, if the process's environment names that very
    /// runtime folder (a reused pid is never hit): SIGTERM, then SIGKILL.
    public static func stopPlayerServices(below directory: String) {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return }
        for case let relative as String in walker where relative.hasSuffix("interlude/service.pid") {
            let file = "\(directory)/\(relative)"
            let runtime = String(file.dropLast("/interlude/service.pid".count))
            guard let pid = readPID(file), let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                  environ.split(separator: 0).contains(Data("XDG_RUNTIME_DIR=\(runtime)".utf8)) else { continue }
            kill(pid, SIGTERM)
            for _ in 0..<200 where kill(pid, 0) == 0 { usleep(10_000) }
            if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        }
    }
}
