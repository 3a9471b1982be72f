import AudioEngine

/// `interlude bench decode FILE`: decode speed through the real decoder and ring.
public enum BenchCommand {
    public static let help = """
    usage: interlude bench decode FILE

    Decodes FILE through the same decoder and ring as playback, without output,
    and prints the seconds of audio decoded per CPU second.
    """

    public static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            writeStandardOutput(help + "\n")
            return 0
        }
        guard arguments.count == 2, arguments[0] == "decode" else {
            writeStandardError("interlude bench: usage: interlude bench decode FILE\n")
            return 2
        }
        let path = arguments[1]
        let cpuBefore = processCPUSeconds()
        let feeder = TrackFeeder(paths: [path])
        guard let format = feeder.openFirst() else {
            for case .failed(let error) in feeder.takeEvents() { writeStandardError("interlude: \(error)\n") }
            return 1
        }
        let ring = SPSCRing(minimumCapacity: 16384, slotBytes: format.bytesPerFrame)
        let consumer = ring.consumer
        var frames = 0
        // Decode into the ring and release it at once: the playback path minus the device.
        while !feeder.isExhausted {
            feeder.fill(ring.producer)
            frames += consumer.discardAll()
        }
        let cpu = processCPUSeconds() - cpuBefore
        let audio = format.seconds(forFrames: frames)
        let speed = audio / max(cpu, 1e-6)
        writeStandardOutput("\(JSONLine.number(speed, decimals: 1)) seconds of audio per CPU second "
                            + "(\(JSONLine.number(audio, decimals: 2)) s of audio in \(JSONLine.number(cpu, decimals: 3)) s CPU)\n")
        return 0
    }
}
