import AudioDecoding
import BookFormat
import Books
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// A file's tags and chapters from wherever it keeps them, read once: the
/// decoder's reading (an MP3's ID3v2 CHAP frames, an M4B's chapter track or
/// `chpl` atom, Ogg's and FLAC's `CHAPTERnn` comments, FLAC's CUESHEET), or
/// else a cue sheet beside it (`NAME.cue` or `NAME.EXT.cue`); with the
/// length from the same decoder.
package struct FileChapters {
    package var tags: AudioTags
    /// One sentence naming the file (or its cue sheet) when something could not be read.
    package var problem: String?
    package var durationMilliseconds: Int?

    package var chapters: [Chapter] { tags.chapters }

    /// Reads `path` with the one decoder opened for it; a file no decoder
    /// takes still gives what its tag says (the book plays what it can).
    package static func read(_ path: String, exactLength: Bool = true) -> FileChapters {
        guard let decoder = try? Decoders.open(path: path) else {
            return FileChapters(path: path, tags: AudioTags.read(path: path), durationMilliseconds: nil)
        }
        defer { decoder.close() }
        if exactLength && !decoder.lengthIsExact { try? decoder.scan() }
        let duration = decoder.lengthInFrames.map { Int((Double($0) * 1000 / Double(decoder.format.rate)).rounded()) }
        return FileChapters(path: path, tags: decoder.tags, durationMilliseconds: duration)
    }

    /// The chapters of `tags` (a decoder's reading of `path`), each named,
    /// else those of a cue sheet beside the file.
    package init(path: String, tags: AudioTags, durationMilliseconds: Int?) {
        var result = FileChapters(tags: tags, durationMilliseconds: durationMilliseconds)
        result.problem = result.tags.damage.map { "\(path): \($0)" }
        // Containers may leave a chapter untitled; a book names each one.
        result.tags.chapters = result.tags.chapters.enumerated().map { index, chapter in
            chapter.title.isEmpty ? Chapter(title: "Chapter \(index + 1)", startMilliseconds: chapter.startMilliseconds,
                                            endMilliseconds: chapter.endMilliseconds) : chapter
        }
        // A cue sheet's own track (`SHEET.cue#N`) is music: the sheet beside it is the one it came from.
        if result.chapters.isEmpty && CueTrackPath(path) == nil {
            switch Self.cueSheet(beside: path) {
            case .none: break
            case .failure(let problem): result.problem = problem
            case .sheet(let sheet, let cuePath):
                let name = path.split(separator: "/").last.map(String.init) ?? path
                if let file = sheet.file(named: name) {
                    result.tags.chapters = sheet.chapters(of: file, durationMilliseconds: result.durationMilliseconds)
                } else {
                    result.problem = "\(cuePath): names no file '\(name)'"
                }
            }
        }
        self = result
    }

    private init(tags: AudioTags, durationMilliseconds: Int?) {
        self.tags = tags
        self.durationMilliseconds = durationMilliseconds
    }

    package enum CueLookup {
        case none
        case sheet(CueSheet, path: String)
        case failure(String)
    }

    /// The cue sheet beside `path`, parsed: `NAME.cue`, then `NAME.EXT.cue`.
    package static func cueSheet(beside path: String) -> CueLookup {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let folder = path.hasPrefix("/") || path.contains("/") ? String(path.dropLast(name.count)) : ""
        let base = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
        for candidate in [folder + base + ".cue", folder + name + ".cue"] where StateFile.isReadableFile(candidate) {
            return load(candidate)
        }
        return .none
    }

    /// A cue sheet read and parsed; one sentence naming it when it cannot be.
    package static func load(_ cuePath: String) -> CueLookup {
        let bytes: [UInt8]
        switch CueTrack.readSheet(cuePath) {
        case .success(let read): bytes = read
        case .failure(let error): return .failure(error.message)
        }
        do throws(CueSheetError) {
            return .sheet(try CueSheet(bytes: bytes), path: cuePath)
        } catch {
            return .failure("\(cuePath): not a usable cue sheet: \(error)")
        }
    }

    /// The audio file a cue sheet plays: the sheet's first FILE, relative to
    /// the sheet's folder; one sentence naming the sheet when it is missing or
    /// the sheet is unusable.
    package static func audioFile(ofCueSheet cuePath: String) -> Result<String, CueProblem> {
        switch load(cuePath) {
        case .none: return .failure(CueProblem(message: "\(cuePath): cannot be read"))
        case .failure(let message): return .failure(CueProblem(message: message))
        case .sheet(let sheet, _):
            guard let file = sheet.files.first(where: { !$0.tracks.isEmpty }) else {
                return .failure(CueProblem(message: "\(cuePath): no tracks"))
            }
            let name = file.name.replacingBackslashes
            let folder = cuePath.contains("/") ? String(cuePath[...cuePath.lastIndex(of: "/")!]) : ""
            let audio = name.hasPrefix("/") ? name : folder + name
            guard StateFile.isReadableFile(audio) else {
                return .failure(CueProblem(message: "\(cuePath): names '\(file.name)', which is not there"))
            }
            return .success(audio)
        }
    }

    package struct CueProblem: Error, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }
}

private extension String {
    /// Cue sheets written on Windows separate folders with backslashes.
    var replacingBackslashes: String { String(map { $0 == "\\" ? "/" : $0 }) }
}
