import Foundation
import Testing

/// Books is pure logic: it reaches the system only through InterludeCore
/// (StateFile, DirectoryListing) and BookFormat (TagFileReader), and
/// imports no C module and no Foundation (SpokenAudio, pure too, gives the
/// spoken-audio settings a book keeps).
struct BooksPurityTests {
    @Test func booksImportsNoCModule() throws {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        let directory = components.joined(separator: "/") + "/Sources/Books"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 5)
        let allowed: Set<String> = ["BookFormat", "InterludeCore", "SpokenAudio"]
        for file in files {
            let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") {
                let module = String(line.dropFirst("import ".count))
                #expect(allowed.contains(module), "\(file) imports \(module)")
            }
        }
    }
}
