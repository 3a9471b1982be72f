import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The real binary's control socket, driven from tests: `interlude remote`
/// runs, raw connections for what the command line would never send, and the
/// player's descriptors and memory read from /proc.
enum Remote {
    /// A private `XDG_RUNTIME_DIR` (0700), so tests side by side never meet.
    static func makeRuntimeDirectory() throws -> String {
        let directory = ScratchFiles.makeDirectory("remote-run")
        chmod(directory, 0o700)
        return directory
    }

    @discardableResult
    static func run(_ runtime: String, _ arguments: [String], timeout: Double = 15) throws -> ProcessResult {
        try ProcessRunner.run(InterludeBinary.path(), ["remote"] + arguments, environment: ["XDG_RUNTIME_DIR": runtime],
                              timeout: timeout)
    }

    /// Waits until a player answers at `runtime`'s socket (instance 1 unless told).
    static func waitForPlayer(_ runtime: String, instance: Int = 1, timeout: Double = 20) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if let result = try? run(runtime, ["--instance", String(instance), "status", "--json"]), result.succeeded {
                return true
            }
            usleep(100_000)
        }
        return false
    }

    static func status(_ runtime: String, instance: Int = 1) throws -> [String: Any] {
        let result = try run(runtime, ["--instance", String(instance), "status", "--json"]).check()
        return (try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]) ?? [:]
    }

    /// Polls until `condition` holds or `timeout` passes.
    static func waitUntil(_ timeout: Double = 15, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = monotonicSeconds() + timeout
        while true {
            if try condition() { return true }
            if monotonicSeconds() > deadline { return false }
            usleep(50_000)
        }
    }

    /// The player's end of a client's connection: the socket `ss -x` names as
    /// the peer of the client's own (the inode `fstat` gives), once the player
    /// has accepted it. Until then `ss` names the peer 0: the kernel gives the
    /// server's end an inode only when `accept` takes it (seen: 0 before the
    /// accept, the accepted descriptor's inode after), so this waits up to
    /// `timeout` for the accept; nil if it never comes.
    /// Counting the player's descriptors instead also counts what it opens on
    /// its own meanwhile (a reconnection, a bus), which under load made a
    /// count one higher after the client left than before it came.
    static func playerEnd(of client: RawControlConnection, timeout: Double = 15) -> UInt64? {
        var info = stat()
        guard fstat(client.fd, &info) == 0 else { return nil }
        var end: UInt64?
        _ = waitUntil(timeout) {
            end = acceptedPeer(ofInode: UInt64(info.st_ino))
            return end != nil
        }
        return end
    }

    /// The inode `ss -x` gives as the peer of the socket `inode`, nil while it is 0 (not accepted yet) or not listed.
    private static func acceptedPeer(ofInode inode: UInt64) -> UInt64? {
        guard let listing = try? ProcessRunner.run("ss", ["-x", "-a", "-H"]), listing.succeeded else { return nil }
        for line in listing.stdoutText.split(separator: "\n") {
            // ... Local-Address Port Peer-Address Port: the client's port is its inode.
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 4, UInt64(fields[fields.count - 3]) == inode else { continue }
            guard let peer = UInt64(fields[fields.count - 1]), peer != 0 else { return nil }
            return peer
        }
        return nil
    }

    /// The inodes of the sockets `pid` holds, from its descriptor table.
    static func socketInodes(_ pid: pid_t) -> Set<UInt64> {
        let directory = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return Set(names.compactMap { name in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(name)"),
                  target.hasPrefix("socket:["), target.hasSuffix("]") else { return nil }
            return UInt64(target.dropFirst("socket:[".count).dropLast())
        })
    }

    /// Whether `pid` holds the socket with this inode among its descriptors.
    static func holdsSocket(_ pid: pid_t, inode: UInt64) -> Bool {
        let directory = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\($0)")) == "socket:[\(inode)]" }
    }

    /// Resident set size of `pid`, in kilobytes.
    static func residentKilobytes(_ pid: pid_t) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return -1 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    /// `interlude remote events` in the background, its lines appended to a file.
    final class EventCapture {
        let path: String
        let process: BackgroundProcess

        init(_ runtime: String, instance: Int = 1) throws {
            path = ScratchFiles.directory + "/events-\(UUID().uuidString).jsonl"
            process = try BackgroundProcess.start(InterludeBinary.path(), ["remote", "--instance", String(instance), "events"],
                                                  environment: ["XDG_RUNTIME_DIR": runtime], stdout: .file(path))
        }

        deinit { _ = process.stop() }

        var events: [InterludeEvent] {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { InterludeEvent.parse(line: String($0)) }
        }

        /// Waits for an event named `name` after the first `after` events; its index.
        @discardableResult
        func waitFor(_ name: String, after: Int = 0, timeout: Double = 15) -> Int? {
            var found: Int?
            _ = Remote.waitUntil(timeout) {
                found = events.enumerated().first { $0.offset >= after && $0.element.event == name }?.offset
                return found != nil
            }
            return found
        }
    }
}
