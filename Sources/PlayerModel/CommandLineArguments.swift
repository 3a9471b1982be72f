/// A hand-written argument scanner shared by every subcommand.
///
/// Each subcommand declares which options take a value and which are flags;
/// everything else that does not start with `--` is a positional argument.
/// `--` ends option parsing. Errors are one sentence, ready for stderr.
public struct ParsedArguments: Sendable {
    public var positionals: [String] = []
    public var values: [String: [String]] = [:]
    public var flags: Set<String> = []

    /// The last value given for `option`, if any.
    public func value(_ option: String) -> String? { values[option]?.last }
    public func has(_ flag: String) -> Bool { flags.contains(flag) }
}

public struct UsageError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

public struct ArgumentSpec: Sendable {
    public let command: String
    public let valued: Set<String>
    public let flags: Set<String>

    public init(command: String, valued: Set<String> = [], flags: Set<String> = []) {
        self.command = command
        self.valued = valued
        self.flags = flags.union(["--help", "-h"])
    }

    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            // Accept both `--name value` and `--name=value`.
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if flags.contains(name) {
                guard inlineValue == nil else {
                    throw UsageError("\(command): \(name) takes no value")
                }
                result.flags.insert(name)
            } else if valued.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError("\(command): \(name) needs a value")
                    }
                    value = arguments[index]
                    index += 1
                }
                result.values[name, default: []].append(value)
            } else if argument.count > 1, argument.dropFirst().allSatisfy(\.isNumber) {
                // A negative number is a positional (e.g. `in -5s` is rejected later with a reason).
                result.positionals.append(argument)
            } else {
                // The full-screen player's own command is `interlude` itself.
                let help = command == "interlude" ? "interlude --help" : "interlude \(command) --help"
                throw UsageError("\(command): unknown option \(name) (see '\(help)')")
            }
        }
        return result
    }
}
