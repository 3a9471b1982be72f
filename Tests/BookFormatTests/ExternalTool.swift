import Foundation

/// Runs the command-line tools that make test fixtures (sox, lame, python3),
/// capturing their output so a failure can say what the tool said.
enum ExternalTool {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The package root, found from this file's path, so fixtures land in
    /// build/ whatever directory the tests run from.
    static let packageRoot: String = {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)  // Tests/BookFormatTests/ExternalTool.swift
        return components.joined(separator: "/")
    }()

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws(Failure) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot start \(arguments[0]): \(error)")
        }
        // Read before waiting, so a chatty tool cannot fill the pipe and block.
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "\(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \(message)")
        }
    }
}
