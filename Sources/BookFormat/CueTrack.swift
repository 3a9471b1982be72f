import Glibc
import InterludeCore

/// One track of a cue sheet as a queue entry, for music: the path
/// `SHEET.cue#N` (N the sheet's `TRACK` number).
///
/// Why a path and not a new kind of queue entry: the queue, the feeder, the
/// play order, playlists, MPRIS and the remote socket all carry entries as
/// path strings, and a track's range can be opened from its path alone by a
/// `Decoder` that wraps the image's decoder over the range (`CueTrackDecoder`
/// in `AudioEngine`). So a cue track passes through everything unchanged,
/// and only the opener and the tag reader learn the form. A file whose real
/// name ends like this is still opened as itself (`Decoders.open` asks
/// the file system first).
public struct CueTrackPath: Equatable, Sendable {
    public let sheetPath: String
    public let trackNumber: Int

    /// Syntax only: `….cue#N` (any case), N a number from 1 to 99.
    public init?(_ path: String) {
        guard let hash = path.lastIndex(of: "#") else { return nil }
        let sheet = String(path[..<hash])
        let number = path[path.index(after: hash)...]
        guard sheet.lowercased().hasSuffix(".cue"), !number.isEmpty, number.count <= 2,
              number.allSatisfy(\.isASCII), let value = Int(number), (1...99).contains(value) else { return nil }
        sheetPath = sheet
        trackNumber = value
    }

    public init(sheetPath: String, trackNumber: Int) {
        self.sheetPath = sheetPath
        self.trackNumber = trackNumber
    }

    public var path: String { "\(sheetPath)#\(trackNumber)" }
}

/// A cue track resolved: the audio file it plays, its range and its words.
public struct CueTrack: Equatable, Sendable {
    public let audioPath: String
    /// The track's TITLE, else "Track N".
    public let title: String
    /// The track's PERFORMER, else the sheet's.
    public let performer: String?
    /// The sheet's TITLE (the album).
    public let album: String?
    /// `INDEX 01`, in milliseconds of the audio file.
    public let startMilliseconds: Int
    /// The next track's `INDEX 01` in the same file; nil for the file's last track (it plays to the file's end).
    public let endMilliseconds: Int?
    /// The same two in CD frames (1/75 s), for the exact sample at any rate that is a multiple of 75.
    public let startCDFrames: Int
    public let endCDFrames: Int?

    /// The range's ends in frames at `rate`: exact from the CD frames (44.1
    /// and 48 kHz are 588 and 640 samples a CD frame), else rounded.
    public func frameRange(rate: Int) -> (start: Int, end: Int?) {
        func frame(_ cdFrames: Int) -> Int { Int((Int64(cdFrames) * Int64(rate) * 2 + 75) / 150) }
        return (frame(startCDFrames), endCDFrames.map(frame))
    }

    /// Every track of the sheet at `sheetPath`, in the sheet's order; one
    /// sentence naming the sheet (and the missing audio file) when the sheet
    /// cannot be read or parsed or names a file that is not there.
    public static func tracks(ofSheet sheetPath: String) -> Result<[(path: CueTrackPath, track: CueTrack)], CueTrackError> {
        let sheet: CueSheet
        switch load(sheetPath) {
        case .success(let loaded): sheet = loaded
        case .failure(let error): return .failure(error)
        }
        var result: [(path: CueTrackPath, track: CueTrack)] = []
        for file in sheet.files where !file.tracks.isEmpty {
            let audio = audioPath(of: file, sheetPath: sheetPath)
            guard StateFile.isReadableFile(audio) else {
                return .failure(CueTrackError(message: "\(sheetPath): names '\(file.name)', which is not there"))
            }
            for (index, track) in file.tracks.enumerated() {
                let next = index + 1 < file.tracks.count ? file.tracks[index + 1] : nil
                result.append((CueTrackPath(sheetPath: sheetPath, trackNumber: track.number),
                               CueTrack(audioPath: audio, title: track.title ?? "Track \(track.number)",
                                        performer: track.performer ?? sheet.performer, album: sheet.title,
                                        startMilliseconds: track.startMilliseconds ?? 0,
                                        endMilliseconds: next?.startMilliseconds,
                                        startCDFrames: track.startCDFrames ?? 0, endCDFrames: next?.startCDFrames)))
            }
        }
        return .success(result)
    }

    /// The track `path` names; one sentence naming it when it cannot be played.
    public static func resolve(_ path: CueTrackPath) -> Result<CueTrack, CueTrackError> {
        switch tracks(ofSheet: path.sheetPath) {
        case .failure(let error): return .failure(error)
        case .success(let tracks):
            guard let found = tracks.first(where: { $0.path == path }) else {
                return .failure(CueTrackError(message: "\(path.sheetPath): has no track \(path.trackNumber)"))
            }
            return .success(found.track)
        }
    }

    /// A FILE relative to the sheet's folder (or absolute); cue sheets
    /// written on Windows separate folders with backslashes.
    static func audioPath(of file: CueSheet.File, sheetPath: String) -> String {
        let name = String(file.name.map { $0 == "\\" ? "/" : $0 })
        if name.hasPrefix("/") { return name }
        let folder = sheetPath.lastIndex(of: "/").map { String(sheetPath[...$0]) } ?? ""
        return folder + name
    }

    static func load(_ sheetPath: String) -> Result<CueSheet, CueTrackError> {
        let bytes: [UInt8]
        switch readSheet(sheetPath) {
        case .success(let read): bytes = read
        case .failure(let error): return .failure(error)
        }
        do throws(CueSheetError) {
            return .success(try CueSheet(bytes: bytes))
        } catch {
            return .failure(CueTrackError(message: "\(sheetPath): not a usable cue sheet: \(error)"))
        }
    }

    /// A cue sheet is text of a few kilobytes; more than this is not one.
    public static let sheetLimit = 1 << 20

    /// The bytes of the sheet at `path`, or one sentence naming it: a FIFO or
    /// a device is refused without blocking, and a file larger than
    /// `sheetLimit` (a 2 GB "cue sheet") without reading it whole.
    public static func readSheet(_ path: String) -> Result<[UInt8], CueTrackError> {
        let descriptor: Int32
        do { descriptor = try AudioPathCheck.open(path) } catch {
            return .failure(CueTrackError(message: "\(path): cannot be read: \(error.reason)"))
        }
        defer { _ = close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count <= sheetLimit {
            let result = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try SystemCall.retrying { Glibc.read(descriptor, buffer.baseAddress, buffer.count) } }
            }
            let count: Int
            do { count = try result.get() } catch {
                return .failure(CueTrackError(message: "\(path): cannot be read: \(error.message)"))
            }
            if count == 0 { return .success(bytes) }
            bytes += chunk[0..<count]
        }
        return .failure(CueTrackError(message: "\(path): larger than \(sheetLimit >> 20) MB, which no cue sheet is"))
    }
}

/// One sentence naming the sheet and what is wrong with it.
public struct CueTrackError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
