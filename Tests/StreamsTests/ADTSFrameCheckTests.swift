import Streams
import Testing

/// Which packets of an AAC station (ADTS) are its frames: two in a row with
/// one fixed header set it, and a packet with another is a false sync.
struct ADTSFrameCheckTests {
    /// A 7-byte ADTS header: MPEG-4, layer 0, no checksum, `profile` (1: LC),
    /// frequency `index` (4: 44.1 kHz), channel `configuration`, a frame of `length` bytes.
    static func header(profile: UInt8 = 1, index: UInt8 = 4, configuration: UInt8 = 2, length: Int = 200,
                       privateBit: UInt8 = 0, layer: UInt8 = 0) -> [UInt8] {
        [0xFF, 0xF1 | layer << 1,
         profile << 6 | index << 2 | privateBit << 1 | configuration >> 2,
         (configuration & 3) << 6 | UInt8((length >> 11) & 3),
         UInt8((length >> 3) & 0xFF), UInt8((length & 7) << 5) | 0x1F, 0xFC]
    }

    private func judge(_ check: inout ADTSFrameCheck, _ header: [UInt8], size: Int? = nil) -> ADTSFrameCheck.Verdict {
        let packetSize = size ?? max(header.count, 200)
        return header.withUnsafeBytes { check.judge($0, packetSize: packetSize) }
    }

    @Test func twoFramesInARowSetTheStreamAndTheFirstIsDropped() {
        var check = ADTSFrameCheck(sampleRate: 44_100, channels: 2)
        #expect(judge(&check, Self.header()) == .falseSync(beforeFirst: true))
        #expect(judge(&check, Self.header(length: 180), size: 180) == .frame)
        // The private bit and the length are not the fixed header's.
        #expect(judge(&check, Self.header(length: 150, privateBit: 1), size: 150) == .frame)
        // Another layout, rate or profile after the first frame: not a frame of this stream.
        #expect(judge(&check, Self.header(configuration: 6)) == .falseSync(beforeFirst: false))
        #expect(judge(&check, Self.header(index: 3)) == .falseSync(beforeFirst: false))
        #expect(judge(&check, Self.header(profile: 0)) == .falseSync(beforeFirst: false))
        #expect(judge(&check, Self.header()) == .frame)
    }

    @Test func aFalseSyncBreaksTheRun() {
        var check = ADTSFrameCheck(sampleRate: 44_100, channels: 2)
        #expect(judge(&check, Self.header()) == .falseSync(beforeFirst: true))
        // Layer bits set, a length past the packet, too short a header: none is a frame.
        #expect(judge(&check, Self.header(layer: 1)) == .falseSync(beforeFirst: true))
        #expect(judge(&check, Self.header()) == .falseSync(beforeFirst: true))
        #expect(judge(&check, Self.header(length: 300), size: 299) == .falseSync(beforeFirst: true))
        #expect(judge(&check, Self.header()) == .falseSync(beforeFirst: true))
        #expect(judge(&check, Array(Self.header().prefix(6))) == .falseSync(beforeFirst: true))
        #expect(judge(&check, Self.header()) == .falseSync(beforeFirst: true))
        #expect(judge(&check, Self.header()) == .frame)
    }

    @Test func headersThatDisagreeWithTheProbeNeverSetTheStream() {
        var check = ADTSFrameCheck(sampleRate: 44_100, channels: 2)
        // Two alike, but 5.1 at 48 kHz where the probe found stereo at 44.1: a false sync's pattern repeated.
        for _ in 0..<3 { #expect(judge(&check, Self.header(index: 3, configuration: 6)) == .falseSync(beforeFirst: true)) }
        // The reserved frequency indices are never a stream's.
        for _ in 0..<2 { #expect(judge(&check, Self.header(index: 13)) == .falseSync(beforeFirst: true)) }
        #expect(judge(&check, Self.header()) == .falseSync(beforeFirst: true))
        #expect(judge(&check, Self.header()) == .frame)
    }

    @Test func heAACAndParametricStereoAgreeWithWhatTheyDecodeTo() {
        // HE-AAC v2 at 44.1 kHz stereo: the header says 22.05 kHz mono (index 7, configuration 1).
        var check = ADTSFrameCheck(sampleRate: 44_100, channels: 2)
        #expect(judge(&check, Self.header(index: 7, configuration: 1)) == .falseSync(beforeFirst: true))
        #expect(judge(&check, Self.header(index: 7, configuration: 1)) == .frame)
        // Nothing known of the stream: the first two alike set it.
        var unknown = ADTSFrameCheck(sampleRate: 0, channels: 0)
        #expect(judge(&unknown, Self.header(index: 3, configuration: 6)) == .falseSync(beforeFirst: true))
        #expect(judge(&unknown, Self.header(index: 3, configuration: 6)) == .frame)
        #expect(judge(&unknown, Self.header()) == .falseSync(beforeFirst: false))
    }
}
