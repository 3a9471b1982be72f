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

    /// The target of a binary with several, and the files to replay: the
    /// target `INTERLUDE_FUZZ_TARGET` names under libFuzzer (its driver owns
    /// the command line), the first argument in a replay (`NAME TARGET
    /// FILE...`). Exits with the names when there is none.
    public static func target<Target: CaseIterable & RawRepresentable>(
        _ type: Target.Type, name: String
    ) -> (Target, ArraySlice<String>) where Target.RawValue == String {
        let names = Target.allCases.map(\.rawValue).joined(separator: ", ")
        var files = CommandLine.arguments.dropFirst()
        let chosen = isFuzzing ? getenv("INTERLUDE_FUZZ_TARGET").map { String(cString: $0) } : files.popFirst()
        guard let chosen, let target = Target(rawValue: chosen) else {
            print(isFuzzing ? "\(name): set INTERLUDE_FUZZ_TARGET to one of \(names)" : "usage: \(name) TARGET FILE... (TARGET: \(names))")
            exit(2)
        }
        return (target, files)
    }

    /// In a fuzzing build, whether libFuzzer runs (the plain build replays).
    public static var isFuzzing: Bool {
        #if FUZZING
        true
        #else
        false
        #endif
    }

    /// `bytes` as a file, for parsers that read paths (the decoders, the tag
    /// readers): one file per process and `name`, rewritten for every input.
    /// Nil when it cannot be written.
    public static func inputFile(_ bytes: [UInt8], name: String) -> String? {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        let path = "\(directory)/interlude-\(name)-fuzz-\(getpid())"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            // Sound: the pointer and count stay within `bytes`.
            let result = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            guard result > 0 else { return nil }
            written += result
        }
        return path
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
