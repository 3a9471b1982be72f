import InterludeCore
import Testing

struct StateFileTests {
    private func temporaryPath(_ name: String) -> String {
        "/tmp/interlude-core-tests-\(UInt64.random(in: 0...UInt64.max))/\(name)"
    }

    @Test func atomicWriteCreatesDirectoriesReplacesContentAndLeavesNoTemporaryFile() throws {
        let file = StateFile(path: temporaryPath("nested/state.json"))
        #expect(try file.read() == nil)
        try file.writeAtomically(Array("first".utf8))
        try file.writeAtomically(Array("second".utf8))
        #expect(try file.read() == Array("second".utf8))
        #expect(!StateFile.isReadableFile(file.path + ".tmp-\(0)"))
        let aside = try file.setAside(suffix: ".old")
        #expect(try StateFile(path: aside).read() == Array("second".utf8))
        #expect(try file.read() == nil)
        try StateFile(path: aside).remove()
    }

    @Test func unwritableLocationIsReportedWithItsPath() {
        let file = StateFile(path: "/proc/interlude-cannot-write/state.json")
        #expect(throws: StateFileError.self) { try file.writeAtomically([1, 2, 3]) }
        do {
            try file.writeAtomically([1])
        } catch {
            #expect(error.description.contains("/proc/interlude-cannot-write"))
        }
    }

    @Test func xdgStateHomeDefaultsToLocalStateAndIgnoresRelativePaths() {
        #expect(XDGDirectories(environment: ["HOME": "/home/ann"]).interludeState == "/home/ann/.local/state/interlude")
        #expect(XDGDirectories(environment: ["HOME": "/home/ann", "XDG_STATE_HOME": "/srv/state"]).interludeState == "/srv/state/interlude")
        #expect(XDGDirectories(environment: ["HOME": "/home/ann", "XDG_STATE_HOME": "relative"]).interludeState == "/home/ann/.local/state/interlude")
        #expect(XDGDirectories(environment: ["HOME": "/home/ann"]).interludeConfig == "/home/ann/.config/interlude")
    }
}
