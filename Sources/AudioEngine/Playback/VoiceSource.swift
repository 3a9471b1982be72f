import AudioDecoding
#if canImport(Glibc)
import Glibc
#endif

/// Fills the interrupter voice's ring on the main thread: an alarm's tone
/// pattern or its own media (`MediaVoice`), or a notification chime.
public protocol VoiceSource: AnyObject {
    /// Writes up to `maxFrames` frames in `format` into `producer`; returns
    /// false once the source has nothing more to give (a finite chime).
    func fill(_ producer: SPSCRing.Producer, format: AudioFormat, maxFrames: Int) -> Bool
}

/// The built-in alarm sound: a classic four-beep pattern at 880 Hz, repeating
/// until stopped. Each second: four beeps of 100 ms separated by 50 ms of
/// silence, then 400 ms of silence. Beeps have 5 ms raised-cosine edges so
/// they start and stop without clicks. Level: -6 dBFS.
public final class ToneVoice: VoiceSource {
    public static let frequency = 880.0
    public static let beepSeconds = 0.1
    public static let gapSeconds = 0.05
    public static let cycleSeconds = 1.0
    public static let beepsPerCycle = 4
    public static let amplitude = 0.5
    private var position = 0
    private let repeats: Bool

    /// A repeating alarm pattern, or (`repeats: false`) one cycle: a notification chime.
    public init(repeats: Bool = true) { self.repeats = repeats }

    /// The sample value (-1...1) of the pattern at `seconds`.
    public static func value(at seconds: Double) -> Double {
        let t = seconds.truncatingRemainder(dividingBy: cycleSeconds)
        let slot = beepSeconds + gapSeconds
        let beep = Int(t / slot)
        guard beep < beepsPerCycle else { return 0 }
        let inBeep = t - Double(beep) * slot
        guard inBeep < beepSeconds else { return 0 }
        let edge = 0.005
        var envelope = 1.0
        if inBeep < edge { envelope = 0.5 - 0.5 * cos(Double.pi * inBeep / edge) }
        if beepSeconds - inBeep < edge { envelope = 0.5 - 0.5 * cos(Double.pi * (beepSeconds - inBeep) / edge) }
        return amplitude * envelope * sin(2 * Double.pi * frequency * inBeep)
    }

    public func fill(_ producer: SPSCRing.Producer, format: AudioFormat, maxFrames: Int) -> Bool {
        let total = repeats ? Int.max : format.frames(forSeconds: Self.cycleSeconds)
        var written = 0
        while written < maxFrames && position < total {
            let region = producer.writableRegion(maxSlots: min(maxFrames - written, total - position))
            let frames = region.count / format.bytesPerFrame
            guard frames > 0 else { break }
            let samples = region.bindMemory(to: Int16.self)
            for frame in 0..<frames {
                let value = Self.value(at: format.seconds(forFrames: position + frame))
                let sample = Int16((value * 32767).rounded())
                for channel in 0..<format.channels { samples[frame * format.channels + channel] = sample }
            }
            producer.commit(frames)
            position += frames
            written += frames
        }
        return position < total
    }
}

/// `silenceFrames` of silence, then `source`: an alarm's sound that starts a
/// moment after the music's fade (`PlaybackEngine.startVoice(leadInFrames:)`).
final class LeadInVoice: VoiceSource {
    private var silenceLeft: Int
    private let source: VoiceSource

    init(silenceFrames: Int, then source: VoiceSource) {
        silenceLeft = silenceFrames
        self.source = source
    }

    func fill(_ producer: SPSCRing.Producer, format: AudioFormat, maxFrames: Int) -> Bool {
        var left = maxFrames
        while silenceLeft > 0 && left > 0 {
            let region = producer.writableRegion(maxSlots: min(left, silenceLeft))
            let frames = region.count / format.bytesPerFrame
            guard frames > 0 else { return true }
            region.initializeMemory(as: UInt8.self, repeating: 0)
            producer.commit(frames)
            silenceLeft -= frames
            left -= frames
        }
        guard left > 0 else { return true }
        return source.fill(producer, format: format, maxFrames: left)
    }
}
