import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a finished child process left behind.
public struct ProcessResult: Sendable {
    /// The command line, for messages (`"sox -n out.wav synth 1 sine 440"`).
    public var commandLine: String
    /// Exit status when the process exited normally, else `nil`.
    public var exitStatus: Int32?
    /// The signal that ended the process, if one did (also set after a timeout kill).
    public var terminatingSignal: Int32?
    /// True when the timeout expired and the runner killed the process.
    public var timedOut: Bool
    public var stdout: Data
    public var stderr: Data
    /// Wall time from spawn to exit, in seconds.
    public var wallSeconds: Double
    /// CPU time and peak RSS of the child, from `wait4`.
    public var usage: ResourceUsage

    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    /// True when the process exited by itself with status 0.
    public var succeeded: Bool { exitStatus == 0 && !timedOut }

    /// Throws `ProcessError.failed` unless the process exited 0 in time.
    @discardableResult
    public func check() throws(ProcessError) -> ProcessResult {
        guard succeeded else { throw .failed(self) }
        return self
    }

    /// One line saying how the process ended, for test messages.
    public var summary: String {
        var text = "`\(commandLine)`"
        if timedOut { text += " timed out and was killed" }
        else if let exitStatus { text += " exited \(exitStatus)" }
        else if let terminatingSignal { text += " was killed by signal \(terminatingSignal)" }
        let err = stderrText.trimmingCharacters(in: .whitespacesAndNewlines)
        if !err.isEmpty { text += "; stderr: \(err.prefix(2000))" }
        return text
    }
}

/// CPU time and peak memory of one child, from `wait4(2)`.
public struct ResourceUsage: Sendable {
    public var userSeconds: Double
    public var systemSeconds: Double
    /// Peak resident set size in kilobytes (`ru_maxrss`; Linux reports KiB).
    ///
    /// Caveat: Linux carries the pre-exec address space's high-water mark into the child,
    /// so a child spawned from this (large) process reports at least this process's RSS
    /// at spawn time. For exact peaks run the program under a small fork+exec helper, as
    /// the bench does with `bench/c/measure.c`. CPU times are not affected.
    public var maxRSSKilobytes: Int

    public var cpuSeconds: Double { userSeconds + systemSeconds }
    public var maxRSSMegabytes: Double { Double(maxRSSKilobytes) / 1024 }

    public init(userSeconds: Double = 0, systemSeconds: Double = 0, maxRSSKilobytes: Int = 0) {
        self.userSeconds = userSeconds
        self.systemSeconds = systemSeconds
        self.maxRSSKilobytes = maxRSSKilobytes
    }

    init(_ usage: rusage) {
        self.userSeconds = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        self.systemSeconds = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        self.maxRSSKilobytes = usage.ru_maxrss
    }
}

public enum ProcessError: Error, CustomStringConvertible, Sendable {
    /// `posix_spawnp` refused (most often: the program is not installed).
    case spawnFailed(command: String, errno: Int32)
    /// The process ran but did not exit 0 in time.
    case failed(ProcessResult)
    /// A background process did not reach the state a helper waited for.
    case notReady(String)

    public var description: String {
        switch self {
        case let .spawnFailed(command, code):
            return "could not start `\(command)`: \(String(cString: strerror(code)))"
        case let .failed(result):
            return result.summary
        case let .notReady(message):
            return message
        }
    }
}

/// Where a child's standard output or error goes.
public enum OutputDestination: Sendable {
    /// Captured into `ProcessResult.stdout` / `.stderr` (through a temporary file, so a
    /// chatty child never blocks on a full pipe).
    case capture
    /// Appended to this file.
    case file(String)
    /// `/dev/null`.
    case discard
}

/// Runs programs as children of the test process, by PID, with timeouts.
///
/// Children are spawned with `posix_spawnp` (so `executable` may be a bare name looked
/// up in `PATH`), reaped with `wait4` (which gives their CPU time and peak RSS), and
/// killed only through the PID recorded at spawn. Every call is synchronous and
/// thread-safe; call it from async tests freely (it blocks the calling thread).
public enum ProcessRunner {
    /// Runs `executable` to completion.
    ///
    /// - Parameters:
    ///   - environment: variables set on top of the test process's environment
    ///     (or on top of nothing when `inheritEnvironment` is false).
    ///   - stdin: bytes fed to the child's standard input; `/dev/null` when nil.
    ///   - timeout: seconds after which the child gets SIGKILL and the result says
    ///     `timedOut`; nil waits forever.
    public static func run(
        _ executable: String,
        _ arguments: [String] = [],
        environment: [String: String] = [:],
        inheritEnvironment: Bool = true,
        stdin: Data? = nil,
        stdout: OutputDestination = .capture,
        stderr: OutputDestination = .capture,
        timeout: Double? = 60
    ) throws(ProcessError) -> ProcessResult {
        let process = try BackgroundProcess.start(
            executable, arguments, environment: environment, inheritEnvironment: inheritEnvironment,
            stdin: stdin, stdout: stdout, stderr: stderr)
        return process.wait(timeout: timeout)
    }

    /// Runs `executable` and throws `ProcessError.failed` unless it exits 0 in time.
    @discardableResult
    public static func check(
        _ executable: String,
        _ arguments: [String] = [],
        environment: [String: String] = [:],
        stdin: Data? = nil,
        timeout: Double? = 120
    ) throws(ProcessError) -> ProcessResult {
        try run(executable, arguments, environment: environment, stdin: stdin, timeout: timeout).check()
    }

    /// The full path of `name` in `PATH`, or nil when it is not installed.
    public static func which(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

/// A child process started in the background and owned by its PID.
///
/// Stop it with `stop()` (a signal, then SIGKILL after a grace period) or wait for it
/// with `wait(timeout:)`. Either reaps it exactly once; later calls return the same
/// result. If the object is dropped while the child still runs, `deinit` kills and reaps
/// it, so a failing test cannot leak a child. The PID is also registered with
/// `ChildRegistry`, which kills leftovers when the test process exits.
public final class BackgroundProcess: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`.
    public let pid: pid_t
    public let commandLine: String
    private let started: Double
    private let stdoutPath: String?
    private let stderrPath: String?
    private let lock = NSLock()
    private var exited = false      // the child has exited (observed with WNOWAIT, not reaped yet)
    private var result: ProcessResult?
    private var killedForTimeout = false

    private init(pid: pid_t, commandLine: String, started: Double, stdoutPath: String?, stderrPath: String?) {
        self.pid = pid
        self.commandLine = commandLine
        self.started = started
        self.stdoutPath = stdoutPath
        self.stderrPath = stderrPath
    }

    deinit {
        if result == nil {
            _ = stop(signal: SIGKILL, grace: 1)
        }
    }

    /// Spawns `executable` with `arguments`. See `ProcessRunner.run` for the parameters.
    public static func start(
        _ executable: String,
        _ arguments: [String] = [],
        environment: [String: String] = [:],
        inheritEnvironment: Bool = true,
        stdin: Data? = nil,
        stdinPath: String? = nil,
        stdout: OutputDestination = .capture,
        stderr: OutputDestination = .capture
    ) throws(ProcessError) -> BackgroundProcess {
        let commandLine = ([executable] + arguments).map(shellQuoted).joined(separator: " ")
        var env = inheritEnvironment ? ProcessInfo.processInfo.environment : [:]
        for (key, value) in environment { env[key] = value }

        let scratch = ScratchFiles.directory
        let token = UUID().uuidString
        // `stdinPath` (a file or a FIFO the test writes to) wins over `stdin`.
        var stdinPath = stdinPath ?? "/dev/null"
        if let stdin, stdinPath == "/dev/null" {
            stdinPath = "\(scratch)/stdin-\(token)"
            _ = FileManager.default.createFile(atPath: stdinPath, contents: stdin)
        }
        func path(_ destination: OutputDestination, _ name: String) -> (open: String, capture: String?, append: Bool) {
            switch destination {
            case .capture: let p = "\(scratch)/\(name)-\(token)"; return (p, p, false)
            case .file(let p): return (p, nil, true)
            case .discard: return ("/dev/null", nil, false)
            }
        }
        let out = path(stdout, "stdout")
        let err = path(stderr, "stderr")

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out.open, O_WRONLY | O_CREAT | (out.append ? O_APPEND : O_TRUNC), 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, err.open, O_WRONLY | O_CREAT | (err.append ? O_APPEND : O_TRUNC), 0o644)

        // Children start with default signal dispositions and an empty mask, whatever the
        // test runner has blocked or ignored (parec must see SIGINT to finalize its file).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let started = monotonicSeconds()
        let code = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        if stdin != nil { unlink(stdinPath) }
        guard code == 0 else {
            if let c = out.capture { unlink(c) }
            if let c = err.capture { unlink(c) }
            throw .spawnFailed(command: commandLine, errno: code)
        }
        ChildRegistry.add(pid)
        return BackgroundProcess(pid: pid, commandLine: commandLine, started: started,
                                 stdoutPath: out.capture, stderrPath: err.capture)
    }

    /// True while the child has not exited.
    public var isRunning: Bool {
        lock.lock(); defer { lock.unlock() }
        if result != nil || exited { return false }
        var info = siginfo_t()
        // WNOWAIT: look without reaping, so the PID stays ours until `reap`.
        if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid != 0 {
            exited = true
            return false
        }
        return true
    }

    /// Sends `signal` to the child, if it has not been reaped. Safe against PID reuse:
    /// a reaped PID is never signalled.
    public func send(_ signal: Int32) {
        lock.lock(); defer { lock.unlock() }
        guard result == nil else { return }
        kill(pid, signal)
    }

    /// Waits for the child to exit (killing it with SIGKILL after `timeout` seconds) and
    /// returns how it ended. Idempotent.
    @discardableResult
    public func wait(timeout: Double? = nil) -> ProcessResult {
        if let done = lock.withLock({ result }) { return done }
        var timer: DispatchWorkItem?
        if let timeout {
            let item = DispatchWorkItem { [weak self] in self?.killForTimeout() }
            timer = item
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: item)
        }
        // Wait for the exit without reaping, so a timeout kill can never hit a reused PID.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        timer?.cancel()
        return reap()
    }

    /// Stops the child: `signal` first (default SIGTERM), SIGKILL if it is still alive
    /// after `grace` seconds. Returns how it ended. Idempotent.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, grace: Double = 5) -> ProcessResult {
        send(signal)
        let deadline = monotonicSeconds() + grace
        while isRunning && monotonicSeconds() < deadline { usleep(2_000) }
        if isRunning { send(SIGKILL) }
        return wait()
    }

    /// Bytes the child has written to a captured stdout so far.
    public func currentStdout() -> Data {
        guard let stdoutPath else { return Data() }
        return FileManager.default.contents(atPath: stdoutPath) ?? Data()
    }

    private func killForTimeout() {
        lock.lock(); defer { lock.unlock() }
        guard result == nil, !exited else { return }
        killedForTimeout = true
        kill(pid, SIGKILL)
    }

    private func reap() -> ProcessResult {
        lock.lock(); defer { lock.unlock() }
        if let result { return result }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = monotonicSeconds() - started
        ChildRegistry.remove(pid)
        exited = true
        // WIFEXITED / WTERMSIG are macros Swift cannot import; these are their glibc definitions.
        let signalNumber = status & 0x7f
        let exitStatus: Int32? = signalNumber == 0 ? (status >> 8) & 0xff : nil
        func take(_ path: String?) -> Data {
            guard let path else { return Data() }
            defer { unlink(path) }
            return FileManager.default.contents(atPath: path) ?? Data()
        }
        let finished = ProcessResult(
            commandLine: commandLine, exitStatus: exitStatus,
            terminatingSignal: signalNumber == 0 ? nil : signalNumber,
            timedOut: killedForTimeout, stdout: take(stdoutPath), stderr: take(stderrPath),
            wallSeconds: wall, usage: ResourceUsage(usage))
        result = finished
        return finished
    }
}

/// Seconds on the monotonic clock.
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// `word` quoted for a shell command line in messages (never executed by a shell).
func shellQuoted(_ word: String) -> String {
    let safe = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }
    return safe && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
