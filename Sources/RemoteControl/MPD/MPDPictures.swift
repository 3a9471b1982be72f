import LibraryIO
import BookFormat
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// `albumart URI OFFSET` and `readpicture URI OFFSET`: a chunk of a picture
/// as MPD 0.23 sends it (`size`, for `readpicture` its `type`, then
/// `binary: N` and N raw bytes), at most the client's `binarylimit` bytes
/// from `OFFSET`. `albumart` is the folder's image (cover, folder or front
/// .jpg, .jpeg or .png beside the song, as the cover art finds it), whether
/// or not the song exists, as MPD looks only at its folder; `readpicture` is
/// the song's own (its tags' front cover, else their first picture), an
/// empty reply when it has none. Read on the MPD worker's thread
/// (`MPDWorker`): what it needs is its own.
package struct MPDPictures: Sendable {
    /// One request, checked on the main loop, answered on the worker's thread.
    package struct Request: Sendable {
        package var command: String
        package var uri: String
        package var offset: Int
        package var limit: Int
    }

    /// MPD's `binarylimit` default, and the least it accepts.
    package static let defaultChunk = 8192
    package static let smallestChunk = 64

    package let musicFolders: [String]

    package func reply(_ request: Request, tags: RecentTags) throws(MPDFailure) -> MPDResponse {
        let (command, uri, offset, limit) = (request.command, request.uri, request.offset, request.limit)
        var response = MPDResponse()
        let bytes: [UInt8]
        if command == "albumart" {
            guard let image = folderImage(of: uri) else { throw MPDFailure(.noExist, "No file exists") }
            switch CoverArtSource.read(image) {
            case .success(let read): bytes = read
            case .failure(let problem): throw MPDFailure(.system, "\(image): \(problem)")
            }
            response.add("size", bytes.count)
        } else {
            guard let path = song(uri) else { throw MPDFailure(.noExist, "No such song") }
            let pictures = tags.tags(of: path).pictures
            guard let picture = pictures.first(where: { $0.kind == .frontCover }) ?? pictures.first else { return response }
            guard picture.length <= CoverArtSource.byteLimit, let read = picture.bytes(path: path) else {
                throw MPDFailure(.system, "\(uri): its picture cannot be read")
            }
            bytes = read
            response.add("size", bytes.count)
            response.add("type", picture.mimeType)
        }
        guard offset <= bytes.count else { throw MPDFailure(.argument, "Offset too large") }
        response.addBinary(bytes[offset..<min(bytes.count, offset + limit)])
        return response
    }

    /// `reply`'s outcome, its ACK naming the command (as `MPDCommands.run` names it).
    package func answer(_ request: Request, tags: RecentTags) -> Result<MPDResponse, MPDFailure> {
        do throws(MPDFailure) {
            return .success(try reply(request, tags: tags))
        } catch {
            var failure = error
            failure.command = request.command
            return .failure(failure)
        }
    }

    /// The image in the folder of `uri` in the first library folder that has
    /// one, inside that folder with its links followed (`MPDFolderBounds`).
    private func folderImage(of uri: String) -> String? {
        let folder = uri.lastIndex(of: "/").map { String(uri[..<$0]) } ?? ""
        guard !folder.split(separator: "/").contains("..") else { return nil }
        for base in musicFolders {
            let directory = folder.isEmpty ? base : (base.hasSuffix("/") ? base : base + "/") + folder
            guard MPDFolderBounds.reaches(directory, inside: base) else { continue }
            if let image = CoverArtSource.folderImage(in: directory), MPDFolderBounds.reaches(image, inside: base) { return image }
        }
        return nil
    }

    /// The song file `uri` names below a library folder, inside it with its links followed.
    private func song(_ uri: String) -> String? {
        guard !uri.isEmpty, !uri.hasPrefix("/"), !uri.split(separator: "/").contains("..") else { return nil }
        for base in musicFolders {
            let path = (base.hasSuffix("/") ? base : base + "/") + uri
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, MPDFolderBounds.reaches(path, inside: base) { return path }
        }
        return nil
    }
}
