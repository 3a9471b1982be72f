import Glibc
#if FUZZING
import CLibFuzzer
#endif

/// In a fuzzing build (`make fuzz` defines FUZZING) this hands the command
/// line to libFuzzer's driver: SwiftPM links `main` to this entry point, so
/// libFuzzer's own `main` never runs. In a plain build it replays saved
/// inputs (`CueSheetFuzzer crash-file...`), which also keeps `swift build`
/// linking without the fuzzer runtime.
@main
enum CueSheetFuzzerMain {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
        #else
        for path in CommandLine.arguments.dropFirst() {
            let bytes = readFile(path)
            bytes.withUnsafeBufferPointer { exerciseParser($0) }
            print("CueSheetFuzzer: \(path): \(bytes.count) bytes parsed")
        }
        #endif
    }

    static func readFile(_ path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            print("CueSheetFuzzer: cannot open \(path)")
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
