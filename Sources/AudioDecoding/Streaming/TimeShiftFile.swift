import CLinux
import InterludeCore
import Streams
#if canImport(Glibc)
import Glibc
#endif

/// The time-shift buffer's spill (`TimeShiftSpill`) as a private file: made
/// under `$XDG_CACHE_HOME/interlude/` (0600, `O_EXCL`) and unlinked at once,
/// so only the open descriptor names it and nothing is left after a crash.
/// Used on the stream's reader thread only (`TimeShiftFeed`), never on the
/// main loop: each write and read is a `pwrite`/`pread` there, and what the
/// buffer no longer needs is punched out, so the file's blocks stay within
/// the limit however long the station plays.
final class TimeShiftFile: TimeShiftSpill {
    private let descriptor: Int32
    private let shown: String
    private var released = 0

    /// The folder for it: `$XDG_CACHE_HOME/interlude`, else `~/.cache/interlude`.
    static func folder(environment: [String: String]) -> String {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (home == "/" ? "/.cache" : home + "/.cache")
        return cache + "/interlude"
    }

    /// Makes the folder when missing and the file in it; the reason, naming the path, when it cannot.
    init(folder: String) throws(TimeShiftSpillError) {
        var made = ""
        for part in folder.split(separator: "/") {
            made += "/" + part
            if mkdir(made, 0o700) != 0 && errno != EEXIST {
                throw TimeShiftSpillError("cannot make \(made): \(Errno.current.message)")
            }
        }
        var opened: Int32 = -1
        var attempt = 0
        var path = ""
        while opened < 0 && attempt < 100 {
            path = "\(folder)/time-shift-\(getpid())-\(attempt)"
            attempt += 1
            do { opened = try SystemCall.retrying { open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) } } catch {
                if error != .fileExists { throw TimeShiftSpillError("cannot make \(path): \(error.message)") }
            }
        }
        guard opened >= 0 else { throw TimeShiftSpillError("cannot make a time-shift file in \(folder): 100 names taken") }
        unlink(path)
        descriptor = opened
        shown = path + " (unlinked)"
    }

    deinit { close(descriptor) }

    func write(_ bytes: [UInt8], at offset: Int) throws(TimeShiftSpillError) {
        var done = 0
        while done < bytes.count {
            let wrote: Int
            do {
                wrote = try SystemCall.retrying {
                    bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
                }
            } catch { throw TimeShiftSpillError("cannot write \(shown): \(error.message)") }
            guard wrote > 0 else { throw TimeShiftSpillError("cannot write \(shown): nothing written") }
            done += wrote
        }
    }

    func read(at offset: Int, count: Int) throws(TimeShiftSpillError) -> [UInt8] {
        guard offset >= released, count >= 0 else { throw TimeShiftSpillError("cannot read \(shown) at \(offset): released") }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got: Int
            do {
                got = try SystemCall.retrying {
                    bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
                }
            } catch { throw TimeShiftSpillError("cannot read \(shown): \(error.message)") }
            guard got > 0 else { throw TimeShiftSpillError("cannot read \(shown): it ended at \(offset + done)") }
            done += got
        }
        return bytes
    }

    func release(before offset: Int) {
        // Whole 64 KiB stretches at a time: a hole smaller than a block frees nothing.
        let end = offset & ~0xFFFF
        guard end > released else { return }
        _ = interlude_punch_hole(descriptor, Int64(released), Int64(end - released))
        released = end
    }
}
