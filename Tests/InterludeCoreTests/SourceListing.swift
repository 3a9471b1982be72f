import FoundationEssentials

/// Finds and reads a module's Swift sources for the import check.
enum SourceListing {
    static func swiftFiles(in directory: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".swift") }
            .sorted()
            .map { directory + "/" + $0 }
    }

    static func lines(of path: String) throws -> [Substring] {
        let data = FileManager.default.contents(atPath: path) ?? Data()
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
    }
}
