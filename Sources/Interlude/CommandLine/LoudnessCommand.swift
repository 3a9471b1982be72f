import PlayerModel
import LoopIO
import AudioEngine
import AudioDecoding
import ReplayGain

/// `interlude loudness FILE... [--album] [--json]`: EBU R 128 loudness and
/// the ReplayGain 2.0 values it gives, for files without ReplayGain tags.
/// Measures only: nothing is written into the files.
public enum LoudnessCommand {
    public static let help = """
    usage: interlude loudness FILE... [--album] [--json]

    Measures each file's loudness by EBU R 128 (libebur128) through the player's
    own decoders, and prints the ReplayGain 2.0 gain to -18 LUFS and the peaks.
    Nothing is written into the files.

    options:
      --album    also measure the files together as one album (album gain)
      --json     one JSON object per line: path, loudness (LUFS), gain (dB),
                 samplePeak and truePeak (linear, 1.0 full scale); the album's
                 line has "album": true

    A file that cannot be measured is reported on stderr in one line and the
    others are measured; the exit status is then 1.
    """

    static let spec = ArgumentSpec(command: "loudness", valued: [], flags: ["--album", "--json"])

    public static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            writeStandardOutput(help + "\n")
            return 0
        }
        let parsed: ParsedArguments
        do { parsed = try spec.parse(arguments) } catch {
            writeStandardError("interlude \(error.message)\n")
            return 2
        }
        guard !parsed.positionals.isEmpty else {
            writeStandardError("interlude loudness: no files given (see 'interlude loudness --help')\n")
            return 2
        }
        let json = parsed.has("--json")
        let tracks: [LoudnessMeasurement]
        var album: LoudnessMeasurement?
        var failures: [LoudnessError] = []
        if parsed.has("--album") {
            // One decode per file: the album's loudness comes from the same meters.
            (tracks, album, failures) = Loudness.measureAlbum(paths: parsed.positionals)
        } else {
            var measured: [LoudnessMeasurement] = []
            for path in parsed.positionals {
                do { measured.append(try Loudness.measure(path: path)) } catch { failures.append(error) }
            }
            tracks = measured
        }
        for failure in failures { writeStandardError("interlude: \(failure.description)\n") }
        for track in tracks { writeStandardOutput((json ? Self.json(track, album: false) : Self.text(track)) + "\n") }
        if let album { writeStandardOutput((json ? Self.json(album, album: true) : "album: " + Self.text(album)) + "\n") }
        let failed = !failures.isEmpty
        return failed ? 1 : 0
    }

    static func text(_ measurement: LoudnessMeasurement) -> String {
        let loudness = measurement.integratedLoudness.isFinite
            ? JSONLine.number(measurement.integratedLoudness, decimals: 2) + " LUFS" : "silent"
        let gain = measurement.gain.map { (($0 >= 0 ? "+" : "") + JSONLine.number($0, decimals: 2)) + " dB" } ?? "none"
        let peak = Decibels.fromLinear(measurement.truePeak).map { JSONLine.number($0, decimals: 2) + " dBTP" } ?? "-inf dBTP"
        return "\(measurement.path): \(loudness), gain \(gain) (to -18 LUFS), true peak \(peak) "
            + "(\(JSONLine.number(measurement.truePeak, decimals: 6)))"
    }

    static func json(_ measurement: LoudnessMeasurement, album: Bool) -> String {
        var line = JSONLine()
        line.add("path", measurement.path)
        if album { line.add("album", true) }
        if measurement.integratedLoudness.isFinite {
            line.add("loudness", measurement.integratedLoudness, decimals: 3)
        } else {
            line.addNull("loudness")
        }
        if let gain = measurement.gain { line.add("gain", gain, decimals: 3) } else { line.addNull("gain") }
        line.add("samplePeak", measurement.samplePeak, decimals: 6)
        line.add("truePeak", measurement.truePeak, decimals: 6)
        return line.text
    }
}
