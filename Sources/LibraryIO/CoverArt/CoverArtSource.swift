import BookFormat
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// Where a track's picture comes from: the front cover its tags carry (ID3
/// APIC, MP4 `covr`, FLAC PICTURE, Vorbis/Opus `METADATA_BLOCK_PICTURE`:
/// the references `AudioTags.pictures` records, read only now), else an
/// image beside it named cover, folder or front (.jpg, .jpeg or .png, in
/// any case). A book's cover is its playing file's, found the same way.
/// Runs on the cover art's thread: it reads files.
package enum CoverArtSource {
    /// The most bytes of a picture read: a cover is rarely over a few MB.
    package static let byteLimit = 16 << 20
    package static let folderNames = ["cover", "folder", "front"]
    package static let folderExtensions = ["jpg", "jpeg", "png"]

    /// A picture found: where (the audio file for its tags' own, else the
    /// image file), for the lines that name it, and its bytes or why not.
    package struct Found: Equatable {
        package let origin: String
        package let bytes: Result<[UInt8], CoverArtProblem>
    }

    /// The picture for the audio file at `path` with these tags' pictures;
    /// nil when it has none.
    package static func picture(forAudio path: String, pictures: [EmbeddedPicture]) -> Found? {
        if let embedded = pictures.first(where: { $0.kind == .frontCover }) ?? pictures.first {
            guard embedded.length <= byteLimit else { return Found(origin: path, bytes: .failure(.tooManyBytes(embedded.length))) }
            guard let bytes = embedded.bytes(path: path) else { return Found(origin: path, bytes: .failure(.unreadable("the file changed"))) }
            return Found(origin: path, bytes: .success(bytes))
        }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        guard let image = folderImage(in: folder.isEmpty ? "/" : folder) else { return nil }
        return Found(origin: image, bytes: read(image))
    }

    /// The folder's picture: cover before folder before front, .jpg before
    /// .jpeg before .png, names compared without case.
    package static func folderImage(in folder: String) -> String? {
        guard let names = DirectoryListing.names(in: folder) else { return nil }
        var best: (rank: Int, name: String)?
        for name in names {
            let lower = name.lowercased()
            guard let dot = lower.lastIndex(of: ".") else { continue }
            let stem = String(lower[..<dot]), ext = String(lower[lower.index(after: dot)...])
            guard let stemRank = folderNames.firstIndex(of: stem), let extRank = folderExtensions.firstIndex(of: ext) else { continue }
            let rank = stemRank * folderExtensions.count + extRank
            if best.map({ rank < $0.rank || (rank == $0.rank && name < $0.name) }) ?? true { best = (rank, name) }
        }
        return best.map { folder == "/" ? "/" + $0.name : folder + "/" + $0.name }
    }

    /// A picture file's bytes, at most `byteLimit` of them: a larger file is refused unread.
    package static func read(_ path: String) -> Result<[UInt8], CoverArtProblem> {
        let descriptor: Int32
        do { descriptor = try AudioPathCheck.open(path) } catch { return .failure(.unreadable("\(error)")) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable(Errno.current.description)) }
        let size = Int(info.st_size)
        guard size <= byteLimit else { return .failure(.tooManyBytes(size)) }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + filled, size - filled)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return .success(Array(bytes.prefix(filled)))
    }
}
