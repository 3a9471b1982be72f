import FuzzDriver
import Glibc
@_spi(Fuzzing) import Interlude

/// libFuzzer over the control socket (`make fuzz`): its request parser, or
/// with `INTERLUDE_FUZZ_TARGET=dispatch` a running player that each input
/// reaches as a client's request, or with `mpd` the MPD front end's request reader. In a plain build a replayer of saved
/// inputs (`RemoteRequestFuzzer file...`, the same variable choosing).
@main
enum RemoteRequestFuzzerMain {
    static func main() {
        let name = getenv("INTERLUDE_FUZZ_TARGET").map { String(cString: $0) } ?? "parse"
        switch name {
        case "parse": selectedTarget = exerciseParser
        case "mpd": selectedTarget = exerciseMPDReader
        case "dispatch":
            startPlayer()
            selectedTarget = exerciseDispatcher
        default:
            print("RemoteRequestFuzzer: INTERLUDE_FUZZ_TARGET is parse (the default), dispatch or mpd")
            exit(2)
        }
        FuzzDriver.run(name: "RemoteRequestFuzzer \(name)", replaying: CommandLine.arguments.dropFirst(),
                       testOneInput: { data, size in fuzzOneInput(data, size) }, replay: selectedTarget)
    }

    /// The player runs on a thread of its own, libFuzzer on this one.
    static func startPlayer() {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/interlude-dispatch-fuzz-XXXXXX".utf8CString)
        guard let directory = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            print("RemoteRequestFuzzer: cannot make a directory in \(base)")
            exit(1)
        }
        dispatcher = RemoteDispatchFuzzing(directory: String(cString: directory))
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { _ in dispatcher!.runPlayer() }, nil)
        precondition(started == 0, "cannot start the player's thread")
    }
}
