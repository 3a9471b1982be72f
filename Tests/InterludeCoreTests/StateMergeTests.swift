import Dispatch
import Glibc
import InterludeCore
import Testing

/// The merge and the lock that two writers of one state file share.
struct StateMergeTests {
    struct Record: Equatable {
        var id: Int
        var name: String
        var count: Int
    }

    static func merged(_ base: [Record], _ mine: [Record], _ theirs: [Record]) -> StateMerge.Records<Record> {
        StateMerge.records(base: base, mine: mine, theirs: theirs, id: \.id) { base, mine, theirs in
            Record(id: mine.id, name: StateMerge.field(base.name, mine: mine.name, theirs: theirs.name),
                   count: StateMerge.field(base.count, mine: mine.count, theirs: theirs.count))
        }
    }

    static let base = [Record(id: 1, name: "a", count: 0), Record(id: 2, name: "b", count: 0)]

    @Test("added elsewhere stays; removed elsewhere stays removed, even when changed here")
    func additionsAndRemovalsElsewhere() {
        let mine = [Record(id: 1, name: "a", count: 0), Record(id: 2, name: "b", count: 5)]
        let theirs = [Record(id: 1, name: "a", count: 0), Record(id: 3, name: "c", count: 0)]
        let result = Self.merged(Self.base, mine, theirs)
        #expect(result.merged.map(\.id) == [1, 3])
        #expect(result.collided.isEmpty)
    }

    @Test("added here stays; removed here stays removed, even when changed elsewhere")
    func additionsAndRemovalsHere() {
        let mine = [Record(id: 2, name: "b", count: 0), Record(id: 4, name: "d", count: 0)]
        let theirs = [Record(id: 1, name: "a", count: 9), Record(id: 2, name: "b", count: 0)]
        #expect(Self.merged(Self.base, mine, theirs).merged.map(\.id) == [2, 4])
    }

    @Test("changed in both: each field as the side that changed it; a field both changed, this writer's")
    func fieldsOfARecordChangedInBoth() {
        let mine = [Record(id: 1, name: "mine", count: 0), Record(id: 2, name: "mine", count: 0)]
        let theirs = [Record(id: 1, name: "a", count: 7), Record(id: 2, name: "theirs", count: 0)]
        let result = Self.merged(Self.base, mine, theirs)
        #expect(result.merged == [Record(id: 1, name: "mine", count: 7), Record(id: 2, name: "mine", count: 0)])
    }

    @Test("the same new id on both sides: the file's keeps it, this writer's is handed back")
    func sameNewIDOnBothSides() {
        let mine = Self.base + [Record(id: 3, name: "mine", count: 0)]
        let theirs = Self.base + [Record(id: 3, name: "theirs", count: 0)]
        let result = Self.merged(Self.base, mine, theirs)
        #expect(result.merged.map(\.name) == ["a", "b", "theirs"])
        #expect(result.collided == [Record(id: 3, name: "mine", count: 0)])
    }

    private func temporaryPath(_ name: String) -> String {
        "/tmp/interlude-core-tests-\(UInt64.random(in: 0...UInt64.max))/\(name)"
    }

    @Test("read, change, write under the lock from two threads at once: no write is lost")
    func lockedReadChangeWriteLosesNothing() throws {
        let file = StateFile(path: temporaryPath("counter"))
        try file.writeAtomically(Array("0".utf8))
        let perWriter = 300
        let writers = 4
        DispatchQueue.concurrentPerform(iterations: writers) { _ in
            for _ in 0..<perWriter {
                _ = try? file.locked {
                    let count = (try? file.read()).flatMap { $0 }.flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? -1
                    try? file.writeAtomically(Array(String(count + 1).utf8))
                }
            }
        }
        #expect(try file.read() == Array(String(writers * perWriter).utf8))
    }

    @Test("a lock held elsewhere for longer than the wait is an error naming the lock, not a hang")
    func aLockHeldTooLongIsAnError() throws {
        let file = StateFile(path: temporaryPath("held"))
        try file.makeDirectory()
        let holder = open(file.lockPath, O_RDONLY | O_CREAT, 0o600)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        var ran = false
        #expect {
            try file.locked { ran = true }
        } throws: { error in
            (error as? StateFileError)?.description.contains(file.lockPath) == true
        }
        #expect(!ran)
    }
}
