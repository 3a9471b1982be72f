import LoopIO
import BookFormat
import CLinux
import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// `on-event = PROGRAM`: runs the program (through `/bin/sh -c`) on track
/// changes, pauses and resumes with the event in its environment, for
/// scrobblers and desktop notifiers. Never waited for: each child is spawned
/// and left to run, its pidfd polled in the main loop's wait, and reaped when
/// it ends. A program that cannot start or fails is reported once, not on
/// every track; one that runs longer than `maximumRunSeconds` is killed with
/// its process group (said once).
package final class EventHook: LoopSource {
    /// Hooks still running beyond this are not joined by more: an event is
    /// skipped (and that said once) rather than piling up processes.
    package static let maximumRunning = 8
    /// A scrobbler's request or a notification takes a second or two; a run
    /// this long has hung (a network that never answers, a prompt on stdin).
    package static let maximumRunSeconds = 10.0

    package let program: String
    private let events: PlayerEventStream
    private var pending: [TimedPlayerEvent] = []
    private var running: [Child] = []
    private var reportedFailure = false
    private var reportedBusy = false
    private var reportedTimeout = false

    private struct Child {
        package let pid: pid_t
        package let pidfd: Int32
        package let deadline: Double
        package var killed = false
    }

    package init(program: String, events: PlayerEventStream) {
        self.program = program
        self.events = events
        events.subscribe { [weak self] timed in
            guard let self, EventHookEnvironment.runs(on: timed.event) else { return }
            pending.append(timed)
        }
    }

    /// The hook the config file names, if any; each line of the file it does
    /// not understand is reported here, once for the run, with its number.
    package static func fromConfig(_ config: PlayerConfigFile, events: PlayerEventStream) -> EventHook? {
        for problem in config.problems { events.error("config: \(problem.description)") }
        return config.onEvent.map { EventHook(program: $0, events: events) }
    }

    deinit {
        // Children outlive the player; only their descriptors go.
        for child in running { close(child.pidfd) }
    }

    // MARK: LoopSource

    package var pollRequests: [LoopPollRequest] { running.filter { $0.pidfd >= 0 }.map { LoopPollRequest(fd: $0.pidfd) } }

    /// Events wait for the end of the turn (the runtime's state is whole then):
    /// don't sleep past it, nor past a run's deadline.
    package var wakeWithinMilliseconds: Int? {
        if !pending.isEmpty { return 0 }
        let now = monotonicSeconds()
        var wait: Double?
        for child in running where !child.killed { wait = min(wait ?? .infinity, child.deadline - now) }
        return wait.map { Int((max(0, min($0, 60)) * 1000).rounded(.up)) }
    }

    package func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        reap()
        killOverdue()
        let due = pending
        pending.removeAll()
        for timed in due { spawn(for: timed, core: core) }
    }

    // MARK: Children

    private func spawn(for timed: TimedPlayerEvent, core: any PlayerCore) {
        guard running.count < Self.maximumRunning else {
            if !reportedBusy {
                reportedBusy = true
                events.error("on-event: \(Self.maximumRunning) runs of '\(program)' have not ended; skipping events until they do")
            }
            return
        }
        let playing = core.snapshot(.playback)
        var path: String?
        if case .trackStarted(_, let started) = timed.event { path = started } else { path = playing.currentPath }
        if let book = playing.bookPath { path = book }
        let trackTags = path.map { core.snapshot(.tags(of: [$0])).tags[$0] ?? AudioTags() } ?? AudioTags()
        var environment = ProcessEnvironment.current()
        for (key, value) in EventHookEnvironment.variables(for: timed, path: path, tags: trackTags) { environment[key] = value }
        do {
            let pid = try Self.spawn(["/bin/sh", "-c", program, "interlude-on-event", timed.event.name], environment: environment)
            let pidfd = interlude_pidfd_open(pid)
            // Without a pidfd the child is reaped on a later turn's waitpid.
            if pidfd >= 0 { _ = fcntl(pidfd, F_SETFD, FD_CLOEXEC) }
            running.append(Child(pid: pid, pidfd: pidfd, deadline: monotonicSeconds() + Self.maximumRunSeconds))
        } catch {
            failedOnce("on-event: cannot run '\(program)': \(error.description)")
        }
    }

    /// Reaps every child that has ended; reports the first failure.
    private func reap() {
        running.removeAll { child in
            var status: Int32 = 0
            guard waitpid(child.pid, &status, WNOHANG) == child.pid else { return false }
            if child.pidfd >= 0 { close(child.pidfd) }
            let exited = status & 0x7F == 0
            let code = (status >> 8) & 0xFF
            if child.killed {
                // Said when it was killed.
            } else if !exited {
                failedOnce("on-event: '\(program)' was killed by signal \(status & 0x7F)")
            } else if code != 0 {
                failedOnce("on-event: '\(program)' exited \(code)" + (code == 127 ? " (not found?)" : ""))
            }
            return true
        }
        if running.count < Self.maximumRunning { reportedBusy = false }
    }

    /// Kills the process group of each run past its deadline (the shell and
    /// what it started); the pidfd then reports its end and `reap` collects it.
    private func killOverdue() {
        let now = monotonicSeconds()
        for index in running.indices where !running[index].killed && now >= running[index].deadline {
            running[index].killed = true
            // Its own group (POSIX_SPAWN_SETPGROUP): the pid is the group's id.
            kill(-running[index].pid, SIGKILL)
            if !reportedTimeout {
                reportedTimeout = true
                events.error("on-event: '\(program)' ran longer than \(Int(Self.maximumRunSeconds)) s and was killed "
                             + "(further runs that hang are killed without a word)")
            }
        }
    }

    private func failedOnce(_ message: String) {
        guard !reportedFailure else { return }
        reportedFailure = true
        events.error(message + " (further failures are not reported)")
    }

    /// posix_spawn with the standard streams on /dev/null, in its own process
    /// group (the terminal's Ctrl-C and Ctrl-Z are the player's), with the
    /// signal mask and dispositions a fresh program expects (the player blocks
    /// its signals for its signalfd).
    package static func spawn(_ arguments: [String], environment: [String: String]) throws(SystemCallError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw SystemCallError(call: "posix_spawn", errno: Errno(result)) }
        return pid
    }
}
