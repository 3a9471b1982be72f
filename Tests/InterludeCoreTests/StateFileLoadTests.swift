import Glibc
import InterludeCore
import Testing

/// `StateFile.load`: the one path by which the alarm and book stores read,
/// parse and set aside a damaged file (their own suites check their wording).
struct StateFileLoadTests {
    static let now = WallInstant(secondsSince1970: 1_795_993_477)
    static let wording = StateFileWording(name: "test state", fallback: "using nothing",
                                          fallbackAfterSettingAside: "started with nothing")

    private func temporaryFile() -> StateFile {
        StateFile(path: "/tmp/interlude-core-tests-\(UInt64.random(in: 0...UInt64.max))/state.json")
    }

    private func parse(_ bytes: [UInt8]) throws(StateFileDamage) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix("ok") else { throw StateFileDamage("it does not start with ok") }
        return text
    }

    @Test func aMissingFileIsNoValueAndNoProblem() {
        #expect(temporaryFile().load(Self.wording, now: Self.now, parse: parse) == StateFileLoad<String>())
    }

    @Test func aGoodFileIsParsedAndLeftInPlace() throws {
        let file = temporaryFile()
        try file.writeAtomically(Array("ok 1".utf8))
        #expect(file.load(Self.wording, now: Self.now, parse: parse) == StateFileLoad(value: "ok 1"))
        #expect(try file.read() == Array("ok 1".utf8))
    }

    @Test func aDamagedFileIsSetAsideUnderTheUTCTimeAndNamedInOneSentence() throws {
        let file = temporaryFile()
        try file.writeAtomically(Array("bad".utf8))
        let loaded = file.load(Self.wording, now: Self.now, parse: parse)
        let aside = file.path + ".corrupt-20261129T230437Z"
        #expect(loaded == StateFileLoad(
            problem: "test state \(file.path) could not be read: it does not start with ok; moved it to \(aside) "
                + "and started with nothing",
            setAsidePath: aside))
        #expect(try file.read() == nil)
        #expect(try StateFile(path: aside).read() == Array("bad".utf8))
    }

    @Test func aDamagedFileThatCannotBeMovedIsNamedWithBothReasons() throws {
        let file = temporaryFile()
        try file.writeAtomically(Array("bad".utf8))
        // A directory where the file would go: rename(2) refuses, even for root.
        #expect(mkdir(file.path + ".corrupt-20261129T230437Z", 0o700) == 0)
        let loaded = file.load(Self.wording, now: Self.now, parse: parse)
        #expect(loaded.problem == "test state \(file.path) could not be read: it does not start with ok, and cannot "
                + "move aside \(file.path): Is a directory; using nothing")
        #expect(loaded.setAsidePath == nil)
    }

    @Test func anUnreadableFileIsNamedAndLeftAlone() throws {
        let file = StateFile(path: "/proc/self/mem")
        let loaded = file.load(Self.wording, now: Self.now, parse: parse)
        #expect(loaded.value == nil)
        #expect(loaded.problem == "cannot read /proc/self/mem: Input/output error; using nothing")
    }

    @Test("set-aside names carry the UTC time", arguments: [
        (951_782_400, "20000229T000000Z"), (-1, "19691231T235959Z"), (1_795_993_477, "20261129T230437Z"),
        (4_107_542_400, "21000301T000000Z"),
    ])
    func setAsideTimestamp(seconds: Int64, expected: String) {
        #expect(WallInstant(secondsSince1970: seconds).compactUTC == expected)
    }
}
