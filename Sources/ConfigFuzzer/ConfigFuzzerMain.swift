import FuzzDriver
import Glibc

/// libFuzzer over the files a user edits or the player keeps: themes, the
/// keys file, `alarms.json` and a book's state. One binary, the parser chosen
/// by `INTERLUDE_FUZZ_TARGET` (theme, keys, alarms, book): libFuzzer's driver
/// owns the command line, and its callback is a C function that can capture
/// nothing. In a plain build it replays saved inputs:
/// `ConfigFuzzer TARGET FILE...`.
@main
enum ConfigFuzzerMain {
    static func main() {
        let names = FuzzTarget.allCases.map(\.rawValue)
        var files = CommandLine.arguments.dropFirst()
        let name: String?
        if FuzzDriver.isFuzzing {
            name = getenv("INTERLUDE_FUZZ_TARGET").map { String(cString: $0) }
        } else {
            name = files.popFirst()
        }
        guard let name, let target = FuzzTarget(rawValue: name) else {
            print(FuzzDriver.isFuzzing ? "ConfigFuzzer: set INTERLUDE_FUZZ_TARGET to one of \(names.joined(separator: ", "))"
                                       : "usage: ConfigFuzzer \(names.joined(separator: "|")) FILE...")
            exit(2)
        }
        selectedTarget = target
        FuzzDriver.run(name: "ConfigFuzzer \(name)", replaying: files,
                       testOneInput: { data, size in fuzzOneInput(data, size) }, replay: target.exercise)
    }
}
