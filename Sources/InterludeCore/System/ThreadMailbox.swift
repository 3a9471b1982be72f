import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What worker threads hand the main loop: a value they change under a lock,
/// and an eventfd the loop polls, counted on each change. The loop takes the
/// value when the eventfd is readable and leaves `empty` in its place.
///
/// One type for every thread that works beside the main loop (the library
/// scan, the podcasts, the MPD front end's reads, the cover art, the
/// lyrics), each choosing what it keeps: a list of messages, the last result
/// only, or a record of what changed.
///
/// Shared by the loop and the threads: the eventfd is closed when the last of
/// them lets go, so a thread that posts after the loop is gone never writes
/// to a number the process has given to another file. Without an eventfd
/// (`wake` is -1, the process out of descriptors) posts still land and a
/// loop that takes them on its own turn still gets them.
public final class ThreadMailbox<Value: Sendable>: Sendable {
    /// Readable when something was posted since the last `take`.
    public let wake: Int32
    private let value: Mutex<Value>
    private let empty: Value

    public init(empty: Value) {
        self.empty = empty
        value = Mutex(empty)
        wake = (try? SystemCall.eventDescriptor()) ?? -1
    }

    deinit { if wake >= 0 { close(wake) } }

    /// Whether the loop can be woken: without the eventfd the work is done on the loop's thread.
    public var isUsable: Bool { wake >= 0 }

    /// Changes the value under the lock, then wakes the loop.
    public func post(_ change: (inout Value) -> Void) {
        value.withLock { change(&$0) }
        guard wake >= 0 else { return }
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    /// The value posted since the last call, `empty` left in its place; the eventfd's count reset.
    public func take() -> Value {
        if wake >= 0 {
            var count: UInt64 = 0
            _ = read(wake, &count, 8)
        }
        return value.withLock { current in
            let taken = current
            current = empty
            return taken
        }
    }
}

extension ThreadMailbox {
    /// A mailbox of messages kept in the order they were posted.
    public convenience init<Element>() where Value == [Element] { self.init(empty: []) }

    /// A mailbox keeping only the newest of what is posted.
    public convenience init<Wrapped>() where Value == Wrapped? { self.init(empty: nil) }

    /// Adds `message` to a mailbox of messages.
    public func post<Element>(_ message: Element) where Value == [Element] {
        post { $0.append(message) }
    }
}
