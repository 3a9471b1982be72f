import Glibc
#if FUZZING
import CLibFuzzer
#endif

/// libFuzzer over the control socket's request parser (`make fuzz`); in a
/// plain build a replayer of saved inputs, as `ChapterFuzzer` is.
@main
enum RemoteRequestFuzzerMain {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
        #else
        for path in CommandLine.arguments.dropFirst() {
            guard let file = fopen(path, "rb") else {
                print("RemoteRequestFuzzer: cannot open \(path)")
                exit(1)
            }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let got = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                if got == 0 { break }
                bytes += chunk[0..<got]
            }
            fclose(file)
            bytes.withUnsafeBufferPointer { exerciseParser($0) }
            print("RemoteRequestFuzzer: \(path): \(bytes.count) bytes parsed")
        }
        #endif
    }
}
