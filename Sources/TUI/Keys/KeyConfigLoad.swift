import InterludeCore

/// The outcome of applying a keys file: the bindings to use and the lines skipped.
public struct KeyConfigLoad: Sendable, Equatable {
    public let bindings: KeyBindings
    public let problems: [ConfigProblem]

    public init(bindings: KeyBindings, problems: [ConfigProblem]) {
        self.bindings = bindings
        self.problems = problems
    }
}
