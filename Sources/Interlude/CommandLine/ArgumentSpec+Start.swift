import PlayerModel

extension ArgumentSpec {
    /// What a command's `run` starts with: its arguments, or the exit status
    /// when nothing is left to do (`--help` printed: 0; a usage error said: 2).
    enum Start {
        case parsed(ParsedArguments)
        case finished(Int32)
    }

    func start(_ arguments: [String], help: String) -> Start {
        let parsed: ParsedArguments
        do { parsed = try parse(arguments) } catch {
            writeStandardError("interlude \(error.message)\n")
            return .finished(2)
        }
        if parsed.has("--help") || parsed.has("-h") {
            writeStandardOutput(help + "\n")
            return .finished(0)
        }
        return .parsed(parsed)
    }
}
