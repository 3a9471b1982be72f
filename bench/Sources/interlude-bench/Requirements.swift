import TestSupport

extension Bench {
    /// Whether the row named `row` can run: the release interlude (when `needsInterlude`; `--stand-in`
    /// measures the harness alone, which such a row cannot) and every tool in `tools` on the PATH.
    /// The first thing missing goes to the report's list of rows not run, under the row's name.
    func ready(_ row: String, needsInterlude: Bool = true, tools: [String]) -> Bool {
        if needsInterlude, !interludeAvailable || options.standIn {
            report.notRun.append("\(row): needs the release interlude")
            return false
        }
        if let tool = tools.first(where: { ProcessRunner.which($0) == nil }) {
            let installer = tool == "cmus" ? "scripts/install-deps.sh --bench" : "make deps"
            report.notRun.append("\(row): \(tool) is not installed (\(installer) installs it)")
            return false
        }
        return true
    }
}
