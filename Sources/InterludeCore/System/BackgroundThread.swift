#if canImport(Glibc)
import Glibc

/// A detached thread running `body` once: the library's background reads
/// and scans, a stream's reader.
public enum BackgroundThread {
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// nil when started; else why `pthread_create` refused.
    public static func start(_ body: @escaping @Sendable () -> Void) -> Errno? {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let status = pthread_create(&thread, &attributes, backgroundThreadEntry, context)
        pthread_attr_destroy(&attributes)
        guard status != 0 else { return nil }
        Unmanaged<Body>.fromOpaque(context).release()
        return Errno(status)
    }

    fileprivate static func run(_ context: UnsafeMutableRawPointer) {
        Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
    }
}

private let backgroundThreadEntry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
    if let context { BackgroundThread.run(context) }
    return nil
}
#endif
