import Glibc
import InterludeCore
import Testing

/// The mailbox worker threads hand the main loop through: every message
/// posted is taken once, in order, the eventfd says when there is something,
/// and a take leaves the mailbox empty and the eventfd quiet.
@Suite struct ThreadMailboxTests {
    /// Whether `fd` is readable now (a zero-timeout poll, as the loop's).
    static func readable(_ fd: Int32) -> Bool {
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) == 1 && request.revents & Int16(POLLIN) != 0
    }

    @Test func messagesFromManyThreadsAreTakenOnceEachInTheOrderEachThreadPostedThem() async {
        let mailbox = ThreadMailbox<[Int]>()
        #expect(mailbox.isUsable)
        #expect(!Self.readable(mailbox.wake))
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask { for index in 0..<1000 { mailbox.post(thread * 10_000 + index) } }
            }
        }
        #expect(Self.readable(mailbox.wake))
        let taken = mailbox.take()
        #expect(taken.count == 4000)
        for thread in 0..<4 {
            let own = taken.filter { $0 / 10_000 == thread }
            #expect(own == (0..<1000).map { thread * 10_000 + $0 })
        }
        #expect(!Self.readable(mailbox.wake), "the take left the eventfd counted")
        #expect(mailbox.take().isEmpty)
    }

    @Test func anOptionalMailboxKeepsTheNewestAndTakingEmptiesIt() {
        let mailbox = ThreadMailbox<String?>()
        mailbox.post { $0 = "first" }
        mailbox.post { $0 = "second" }
        #expect(mailbox.take() == "second")
        #expect(mailbox.take() == nil)
    }

    @Test func aRecordIsChangedInPlaceAndTakenWhole() {
        struct Progress: Sendable, Equatable { var done = 0; var lines: [String] = [] }
        let mailbox = ThreadMailbox(empty: Progress())
        mailbox.post { $0.done = 3 }
        mailbox.post { $0.lines.append("one") }
        #expect(mailbox.take() == Progress(done: 3, lines: ["one"]))
        #expect(mailbox.take() == Progress())
    }
}
