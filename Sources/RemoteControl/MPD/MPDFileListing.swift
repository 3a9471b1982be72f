import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// `listfiles [URI]`: a folder's files and folders on the disk, as MPD 0.23
/// lists them (`file:` with `size:` and `Last-Modified:`, `directory:` with
/// `Last-Modified:`; links and other kinds left out, as MPD's `lstat` leaves
/// them), read on the MPD worker's thread. A name is looked for below each
/// library folder, and only where it stays inside that folder once its
/// links are followed: MPD 0.23 lists `../elsewhere` to any client; this
/// answers `[50] No such directory`. A whole path is the user's own
/// client's to list (`[4] Access denied` to any other, as MPD's).
package struct MPDFileListing: Sendable {
    package let musicFolders: [String]
    package let uri: String
    /// The client is the user's own (the Unix socket's, its user checked).
    package let local: Bool

    /// The names listed, in this order: MPD lists them as the folder holds them, which no order reproduces.
    package func reply() throws(MPDFailure) -> MPDResponse {
        let located = try MPDLocatedURI.locate(uri)
        switch located {
        case .url: throw MPDFailure(.noExist, "No such directory")
        case .file(let path):
            guard local else { throw MPDFailure(.permission, "Access denied") }
            return try Self.list(path)
        case .relative(let name):
            guard !name.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0 == "." }) else {
                throw MPDFailure(.noExist, "No such directory")
            }
            var firstFailure: MPDFailure?
            for base in musicFolders {
                let folder = name.isEmpty ? base : (base.hasSuffix("/") ? base : base + "/") + name
                guard MPDFolderBounds.reaches(folder, inside: base) || access(folder, F_OK) != 0 else { continue }
                do throws(MPDFailure) {
                    return try Self.list(folder)
                } catch {
                    firstFailure = firstFailure ?? error
                }
            }
            throw firstFailure ?? MPDFailure(.noExist, "No such directory")
        }
    }

    /// `reply`'s outcome, its ACK naming the command.
    package func answer() -> Result<MPDResponse, MPDFailure> {
        do throws(MPDFailure) {
            return .success(try reply())
        } catch {
            var failure = error
            failure.command = "listfiles"
            return .failure(failure)
        }
    }

    private static func list(_ folder: String) throws(MPDFailure) -> MPDResponse {
        guard let stream = opendir(folder) else {
            let problem = Errno.current
            throw MPDFailure(.system, "Failed to open \(folder): \(problem.message)")
        }
        defer { closedir(stream) }
        let descriptor = dirfd(stream)
        var entries: [(name: String, info: stat)] = []
        while let entry = readdir(stream) {
            let bytes = withUnsafeBytes(of: &entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            guard bytes != [0x2E], bytes != [0x2E, 0x2E], let name = String(validating: bytes, as: UTF8.self) else { continue }
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFREG || kind == S_IFDIR { entries.append((name, info)) }
        }
        var response = MPDResponse()
        for (name, info) in entries.sorted(by: { MPDCollation.precedes($0.name, $1.name) }) {
            if info.st_mode & S_IFMT == S_IFDIR {
                response.add("directory", name)
            } else {
                response.add("file", name)
                response.add("size", Int(info.st_size))
            }
            if let modified = MPDStoredPlaylists.time(Int(info.st_mtim.tv_sec)) { response.add("Last-Modified", modified) }
        }
        return response
    }
}
