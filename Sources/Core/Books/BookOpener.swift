import LoopIO
import LibraryIO
import AudioEngine
import AudioDecoding
import BookFormat
import Books
import InterludeCore
import Streams
#if canImport(Glibc)
import Glibc
#endif

/// Opens a book for the application: resolves its path (the state file is
/// keyed by the absolute path), reads its files' tags, and asks the decoder
/// for each file's exact length, which `Books` leaves to its caller.
package enum BookOpener {
    /// Whether `play` should treat its arguments as a book: one folder of
    /// MP3 files, one MP3 file with ID3v2 chapters, or any one path with
    /// `--book`. Two or more files are always music; so is a folder without
    /// MP3 files or a single file without chapters (unless forced).
    package static func isBook(_ paths: [String], forced: Bool) -> Bool {
        guard paths.count == 1, let path = paths.first else { return false }
        if forced { return true }
        // A station is no book, and is not opened to look for chapters.
        if case .url = StreamLocation.classify(path) { return false }
        if let names = DirectoryListing.names(in: path) {
            return !BookFolderOrder.audioFiles(names).isEmpty
        }
        // The tag's chapters (ID3v2, Vorbis), an M4B's own, or a cue sheet beside the file.
        return !FileChapters.read(path, exactLength: false).chapters.isEmpty
    }

    /// The book at `path` with every file's length; throws one sentence naming the path.
    /// `exactLengths: false` takes the decoder's estimate for a file without a
    /// Xing/Info header instead of reading it whole (the books pane's percentages).
    package static func open(_ path: String, exactLengths: Bool = true) throws(BookLoadError) -> Book {
        let absolute = AbsolutePath.absolute(path)
        // Each file's tags, chapters and length from the one decoder opened for it.
        var lengths: [String: Int] = [:]
        let source = try BookSource.load(path: absolute) { file in
            let found = FileChapters.read(file, exactLength: exactLengths)
            if let length = found.durationMilliseconds { lengths[file] = length }
            return BookSource.File(path: file, tags: found.tags, problem: found.problem)
        }
        return try Book(source: source, absolutePath: absolute) { file in
            lengths[file.path] ?? lengthInMilliseconds(file.path, exact: exactLengths)
        }
    }

    /// The decoder's exact length, scanning the file when its header does not
    /// tell (a file without a Xing/Info frame) unless `exact` is false; nil
    /// when it cannot be decoded.
    package static func lengthInMilliseconds(_ path: String, exact: Bool = true) -> Int? {
        do throws(DecoderError) {
            let decoder = try Decoders.open(path: path)
            if exact && !decoder.lengthIsExact { try decoder.scan() }
            guard let frames = decoder.lengthInFrames else { return nil }
            return Int((Double(frames) * 1000 / Double(decoder.format.rate)).rounded())
        } catch {
            return nil
        }
    }
}
