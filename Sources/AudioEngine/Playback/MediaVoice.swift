import AudioDecoding

/// An alarm's own media as the interrupter voice: files in
/// order (one file, a folder, a playlist, a book from its place) or a
/// station's URL, each opened by `Decoders.open` and converted to the
/// stream's format, decoded on the main loop as the feeder decodes.
///
/// It keeps what the player needs to stand behind "an alarm always sounds":
/// how many frames it gave that a listener hears (`audibleFrames`: a sample
/// at or above -60 dBFS), and why it gave up (`failure`: nothing opened, the
/// book or the station ended). A station that has sent nothing yet gives
/// nothing this turn (`.notYet`) and is asked again at the next.
/// Main loop only, like its decoders.
public final class MediaVoice: VoiceSource {
    /// Where it is: the file's index in `paths` and the output frame in that file.
    public struct Place: Equatable, Sendable {
        public var index: Int
        public var frame: Int
        public init(index: Int, frame: Int) {
            self.index = index
            self.frame = frame
        }
    }

    /// A sample at or above this (-60 dBFS) is sound; a file of digital silence is none.
    public static let audibleThreshold: Int32 = 33

    public let paths: [String]
    public let loops: Bool
    public private(set) var place: Place
    /// Frames given so far that hold sound.
    public private(set) var audibleFrames = 0
    /// Why it stopped giving frames for good; nil while it plays.
    public private(set) var failure: String?
    /// Files that did not open or failed while read, skipped (one sentence each).
    public private(set) var problems: [String] = []

    private let format: AudioFormat
    private var decoder: (any Decoder)?
    /// Whether the pass through `paths` under way gave any frame (a loop of files that give none ends).
    private var passGaveFrames = false

    /// Opens the first of `paths` from `start` that opens (a file that does not is
    /// skipped and noted), so that a sound that cannot play is known before it is due.
    public init(paths: [String], start: Place = Place(index: 0, frame: 0), loops: Bool,
                format: AudioFormat) throws(DecoderError) {
        self.paths = paths
        self.loops = loops
        self.format = format
        place = Place(index: max(0, min(start.index, paths.count)), frame: max(0, start.frame))
        var first: DecoderError?
        while place.index < paths.count {
            do throws(DecoderError) {
                let opened = try Decoders.open(path: paths[place.index], target: format)
                if place.frame > 0 { try opened.seek(toFrame: place.frame) }
                decoder = opened
                return
            } catch {
                first = first ?? error
                problems.append(error.description)
                place = Place(index: place.index + 1, frame: 0)
            }
        }
        throw first ?? DecoderError(.unreadable, path: paths.first ?? "", detail: "nothing to play")
    }

    /// The path playing now (nil once it gave up).
    public var currentPath: String? { decoder == nil ? nil : paths[place.index] }

    public func fill(_ producer: SPSCRing.Producer, format: AudioFormat, maxFrames: Int) -> Bool {
        var written = 0
        while written < maxFrames, let decoder {
            let region = producer.writableRegion(maxSlots: maxFrames - written)
            guard region.count > 0 else { break }
            let result: DecoderReadResult
            do { result = try decoder.read(into: region) } catch {
                problems.append(error.description)
                next(after: error.description)
                continue
            }
            switch result {
            case .frames(let frames) where frames > 0:
                audibleFrames += Self.audible(region, frames: frames, channels: format.channels)
                producer.commit(frames)
                written += frames
                place.frame += frames
                passGaveFrames = true
            case .notYet:
                // A station with nothing arrived: asked again at the engine's next turn.
                return true
            default:
                next(after: nil)
            }
        }
        return decoder != nil
    }

    /// Releases the decoder (a station's reader thread stops).
    public func close() {
        decoder?.close()
        decoder = nil
    }

    /// The file after this one: from the start again when looping and the
    /// pass gave frames, else the end.
    private func next(after problem: String?) {
        decoder?.close()
        decoder = nil
        var attempts = 0
        while attempts < paths.count {
            attempts += 1
            var index = place.index + 1
            if index >= paths.count {
                guard loops, passGaveFrames else { break }
                passGaveFrames = false
                index = 0
            }
            place = Place(index: index, frame: 0)
            do throws(DecoderError) {
                decoder = try Decoders.open(path: paths[index], target: format)
                return
            } catch {
                problems.append(error.description)
            }
        }
        failure = problem ?? (paths.count == 1 ? "\(paths[0]) ended" : "its last file ended")
        if let last = problems.last, problem == nil, attempts > 1 { failure = last }
    }

    /// How many of `frames` hold a sample at or above the threshold.
    private static func audible(_ region: UnsafeMutableRawBufferPointer, frames: Int, channels: Int) -> Int {
        let samples = region.bindMemory(to: Int16.self)
        var count = 0
        for frame in 0..<frames {
            for channel in 0..<channels where abs(Int32(samples[frame * channels + channel])) >= audibleThreshold {
                count += 1
                break
            }
        }
        return count
    }
}
