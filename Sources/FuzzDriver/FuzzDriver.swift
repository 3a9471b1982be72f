import Glibc
#if FUZZING
import CLibFuzzer
#endif

/// What every fuzzer executable's `main` does. In a fuzzing build (`make
/// fuzz` defines FUZZING) it hands the command line to libFuzzer's driver:
/// SwiftPM links `main` to the executable's entry point, so libFuzzer's own
/// `main` never runs. In a plain build it replays saved inputs (`NAME
/// crash-file...`) through the same parser, which also keeps `swift build`
/// linking without the fuzzer runtime.
public enum FuzzDriver {
    /// libFuzzer's per-input callback: a C function, which can capture nothing.
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

    public static func run(name: String, replaying files: ArraySlice<String>, testOneInput: TestOneInput,
                           replay: (UnsafeBufferPointer<UInt8>) -> Void) -> Never {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
        #else
        for path in files {
            let bytes = readFile(path, name: name)
            bytes.withUnsafeBufferPointer { replay($0) }
            print("\(name): \(path): \(bytes.count) bytes parsed")
        }
        exit(0)
        #endif
    }

    /// In a fuzzing build, whether libFuzzer runs (the plain build replays).
    public static var isFuzzing: Bool {
        #if FUZZING
        true
        #else
        false
        #endif
    }

    static func readFile(_ path: String, name: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            print("\(name): cannot open \(path)")
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
