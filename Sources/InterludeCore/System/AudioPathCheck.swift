#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a path names when it is not a regular file.
public enum SpecialFileKind: String, Sendable, Equatable {
    case directory = "a directory"
    case fifo = "a FIFO (named pipe)"
    case characterDevice = "a character device"
    case blockDevice = "a block device"
    case socket = "a socket"

    /// Nil for a regular file.
    public init?(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        // A symbolic link is followed by stat; nothing else exists on Linux.
        default: self = .characterDevice
        }
    }
}

/// Why a file could not be opened for reading: the system's error, or what
/// the path names instead of a file.
public enum RegularFileError: Error, Sendable, Equatable, CustomStringConvertible {
    case failed(Errno)
    case special(SpecialFileKind)

    /// The reason, without the path: "a FIFO (named pipe), not a file".
    public var reason: String {
        switch self {
        case .failed(let error): error.message
        case .special(let kind): "\(kind.rawValue), not a file"
        }
    }

    public var description: String { reason }
}

/// The one check of every path the player reads audio, tags, playlists, cue
/// sheets or state from: a FIFO, a device or a socket named `00.mp3` is
/// refused before anything opens it, since a blocking open of a FIFO waits
/// for a writer (for ever, on the main loop) and a read of `/dev/zero` never
/// ends. `check` answers from `stat`, for messages before any open; `open`
/// is the race-free form (the name may change between the two), which every
/// reader of such a path opens with.
public enum AudioPathCheck {
    /// What `path` names when it exists and is not a regular file; nil for a
    /// regular file, and for a path `stat` fails on (the opener says why).
    public static func specialKind(_ path: String) -> SpecialFileKind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return SpecialFileKind(mode: info.st_mode)
    }

    /// Opens `path` (relative to `folder`, a directory descriptor) for
    /// reading, only when it is a regular file: with `O_NONBLOCK`, so that a
    /// FIFO or a device cannot block the open, checked with `fstat` on what
    /// was opened, then back to blocking reads (a regular file's never wait
    /// long). The caller closes the descriptor.
    public static func open(_ path: String, relativeTo folder: Int32 = AT_FDCWD) throws(RegularFileError) -> Int32 {
        let descriptor: Int32
        do { descriptor = try SystemCall.retrying { openat(folder, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) } } catch {
            // A socket cannot be opened at all (ENXIO): say what it is, not the errno.
            var info = stat()
            if fstatat(folder, path, &info, 0) == 0, let kind = SpecialFileKind(mode: info.st_mode) { throw .special(kind) }
            throw .failed(error)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = Errno.current
            close(descriptor)
            throw .failed(error)
        }
        if let kind = SpecialFileKind(mode: info.st_mode) {
            close(descriptor)
            throw .special(kind)
        }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return descriptor
    }
}
