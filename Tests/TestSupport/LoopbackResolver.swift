import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program whose name look-ups never leave the machine: in a mount
/// namespace of its own where `/etc/resolv.conf` names 127.0.0.1, where no DNS
/// server listens, so a name not in `/etc/hosts` fails at once ("Temporary
/// failure in name resolution") instead of asking the network's resolver.
/// Needs root (`unshare --mount`); elsewhere the command is run as it is, and
/// the look-up goes to the system's resolver (the names tests use end in
/// `.invalid`, which no resolver answers).
public enum LoopbackResolver {
    /// `executable arguments` as the command that runs it so.
    public static func command(_ executable: String, _ arguments: [String]) -> (String, [String]) {
        guard geteuid() == 0, ProcessRunner.which("unshare") != nil else { return (executable, arguments) }
        return ("unshare", ["--mount", "sh", "-c", "mount --bind \"$1\" /etc/resolv.conf && shift && exec \"$@\"", "sh",
                            configuration, executable] + arguments)
    }

    private static let configuration: String = {
        let path = "\(ScratchFiles.directory)/loopback-resolv.conf"
        _ = FileManager.default.createFile(atPath: path, contents: Data("nameserver 127.0.0.1\noptions attempts:1 timeout:1\n".utf8))
        return path
    }()
}
