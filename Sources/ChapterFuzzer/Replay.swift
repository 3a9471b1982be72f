// In a fuzzing build libFuzzer supplies `main`; `make fuzz` defines FUZZING
// so this one steps aside. In a plain build this `main` keeps `swift build`
// linking and replays crash files: `ChapterFuzzer FILE...`.
#if !FUZZING
import Glibc

@main
enum ChapterFuzzReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let file = fopen(path, "rb") else {
                print("ChapterFuzzer: cannot open \(path)")
                exit(1)
            }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                // Sound: fread writes at most chunk.count bytes into the chunk.
                let got = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                if got == 0 { break }
                bytes += chunk[0..<got]
            }
            fclose(file)
            bytes.withUnsafeBufferPointer { exerciseParser($0) }
            print("ChapterFuzzer: \(path): \(bytes.count) bytes parsed")
        }
    }
}
#endif
