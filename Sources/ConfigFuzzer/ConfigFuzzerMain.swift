import Glibc
#if FUZZING
import CLibFuzzer
#endif

/// libFuzzer over the files a user edits or the player keeps: themes, the
/// keys file, `alarms.json` and a book's state. One binary, the parser chosen
/// by `INTERLUDE_FUZZ_TARGET` (theme, keys, alarms, book): libFuzzer's driver
/// owns the command line, and its callback is a C function that can capture
/// nothing. In a plain build it replays saved inputs:
/// `ConfigFuzzer TARGET FILE...`.
@main
enum ConfigFuzzerMain {
    static func main() {
        #if FUZZING
        guard let name = getenv("INTERLUDE_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
            print("ConfigFuzzer: set INTERLUDE_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
            exit(2)
        }
        selectedTarget = target
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
        #else
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            print("usage: ConfigFuzzer \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) FILE...")
            exit(2)
        }
        for path in arguments.dropFirst() {
            let bytes = readFile(path)
            bytes.withUnsafeBufferPointer { target.exercise($0) }
            print("ConfigFuzzer \(name): \(path): \(bytes.count) bytes parsed")
        }
        #endif
    }

    static func readFile(_ path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            print("ConfigFuzzer: cannot open \(path)")
            exit(1)
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            // Sound: fread writes at most chunk.count bytes into the chunk.
            let got = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if got == 0 { return bytes }
            bytes += chunk[0..<got]
        }
    }
}
