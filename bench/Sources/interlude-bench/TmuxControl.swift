import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A tmux control-mode client (`tmux -C attach -f ignore-size`: it does not
/// size the window) on a pane's private server, the instrument for a key's
/// time to its frame: keys are sent and the screen read as commands on its
/// one connection, and the server says when the pane writes (`%output`), so
/// the screen is read when the program has drawn. Spawning `tmux send-keys`
/// and `tmux capture-pane` as processes every half-millisecond, as the
/// harness's waits do, kept one of the machine's two cores busy and was most
/// of what was timed.
final class TmuxControl {
    let pid: pid_t
    private var input: Int32
    private var output: Int32
    private var pending: [UInt8] = []
    /// The pane wrote after the last command's answer.
    private var paneWrote = false

    init(socket: String) throws {
        var toClient: [Int32] = [-1, -1]
        var fromClient: [Int32] = [-1, -1]
        guard pipe(&toClient) == 0, pipe(&fromClient) == 0 else {
            throw ProcessError.notReady("tmux control client: pipe failed (errno \(errno))")
        }
        // Ours alone: no other child of the bench inherits them.
        for descriptor in toClient + fromClient { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toClient[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromClient[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = ["tmux", "-u", "-S", socket, "-C", "attach-session", "-f", "ignore-size"]
        var variables = ProcessInfo.processInfo.environment
        variables["TMUX"] = nil
        variables["LANG"] = "C.UTF-8"
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code = posix_spawnp(&pid, "tmux", &actions, nil, argv, envp)
        close(toClient[0])
        close(fromClient[1])
        input = toClient[1]
        output = fromClient[0]
        guard code == 0 else {
            close(input)
            close(output)
            throw ProcessError.spawnFailed(command: arguments.joined(separator: " "), errno: code)
        }
        self.pid = pid
        // The attach's own answer and the notifications before it are read
        // past: the first answer to a marker of ours starts the exchange.
        let marker = "interlude-bench-\(pid)"
        let deadline = monotonicSeconds() + 10
        try send("display-message -p " + marker)
        while try !answer(before: deadline).contains(marker) {}
    }

    deinit { stop() }

    /// Ends the client (its input closed) and reaps it.
    func stop() {
        guard input >= 0 else { return }
        close(input)
        close(output)
        (input, output) = (-1, -1)
        var status: Int32 = 0
        let deadline = monotonicSeconds() + 5
        while waitpid(pid, &status, WNOHANG) == 0 {
            if monotonicSeconds() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(2_000)
        }
    }

    /// Runs a tmux command; its output's lines.
    @discardableResult
    func command(_ line: String, timeout: Double = 10) throws -> [String] {
        let deadline = monotonicSeconds() + timeout
        try send(line)
        return try answer(before: deadline)
    }

    /// Types `text` as it is (`send-keys -l`), or sends a key by name (`BSpace`, `Escape`).
    func type(_ text: String) throws { try command("send-keys -l -- '" + text.replacingOccurrences(of: "'", with: "'\\''") + "'") }
    func press(_ key: String) throws { try command("send-keys " + key) }

    /// The pane's text, as `capture-pane -p` prints it.
    func screen() throws -> String { try command("capture-pane -p").joined(separator: "\n") }

    /// Waits until the screen `shows` what is looked for, reading it after
    /// each write of the pane's program.
    func wait(timeout: Double = 30, _ shows: (String) -> Bool) throws {
        let deadline = monotonicSeconds() + timeout
        while true {
            let text = try screen()
            if shows(text) { return }
            while !paneWrote {
                let line = try nextLine(before: deadline, what: "the screen: \(text.debugDescription)")
                if line.hasPrefix("%output ") { paneWrote = true }
            }
        }
    }

    private func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw ProcessError.notReady("tmux control client: its input closed") }
            written += count
        }
    }

    /// Blocks of output tmux sent that answered no command of ours (`%begin`'s
    /// flags 0), for the report: the attach's own, and any other.
    private(set) var unsolicited: [String] = []

    /// The lines of the next answer to a command of ours (`%begin` to `%end`,
    /// flagged 1); the notifications before it are noted (`%output`) and
    /// dropped, and so are blocks that answer no command of ours.
    private func answer(before deadline: Double) throws -> [String] {
        while true {
            let line = try nextLine(before: deadline)
            if line.hasPrefix("%output ") { paneWrote = true }
            if line.hasPrefix("%exit") { throw ProcessError.notReady("tmux control client left: \(line)") }
            guard line.hasPrefix("%begin ") else { continue }
            let ours = line.split(separator: " ").last == "1"
            var lines: [String] = []
            while true {
                let inside = try nextLine(before: deadline)
                if inside.hasPrefix("%end ") || inside.hasPrefix("%error ") {
                    if !ours {
                        unsolicited.append(([line] + lines.prefix(3)).joined(separator: " | "))
                        break
                    }
                    if inside.hasPrefix("%error ") { throw ProcessError.notReady("tmux: " + lines.joined(separator: " ")) }
                    paneWrote = false
                    return lines
                }
                lines.append(inside)
            }
        }
    }

    private func nextLine(before deadline: Double, what: @autoclosure () -> String = "") throws -> String {
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...end)
                return line
            }
            let left = deadline - monotonicSeconds()
            guard left > 0 else { throw ProcessError.notReady("tmux control client: timed out; \(what())") }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(left * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw ProcessError.notReady("tmux control client: its output ended") }
            pending += chunk[..<count]
        }
    }
}
