import PlayerModel
import CPulse
#if canImport(Glibc)
import Glibc
#endif

/// libpulse's `pa_mainloop_api` implemented over the player's own loop: the
/// context's descriptors go into the runtime's one `poll` (as `pollRequests`),
/// its timers become that poll's timeout, and its callbacks run from
/// `dispatch`, on the main thread, inside the loop's turn.
///
/// Why this and not `pa_mainloop` with its poll function replaced: splitting
/// `pa_mainloop_prepare/poll/dispatch` around our wait means handing libpulse
/// back poll results it did not ask for from inside its own poll callback and
/// relying on how `pa_mainloop_dispatch` reads them, and it keeps a wake-up
/// pipe of its own; the API is 13 small functions and leaves nothing of
/// libpulse's loop in the process. Nor its threaded mainloop: a thread of its
/// own would call back into the player from outside the main thread.
///
/// The events are objects owned by this loop; libpulse holds them as opaque
/// pointers (unretained: the arrays keep them alive until libpulse frees them,
/// and a dispatch works on a copy, so an event freed by a callback lives until
/// the dispatch that called it ends).
package final class PulseMainLoop {
    package final class IOEvent {
        package unowned let loop: PulseMainLoop
        package let fd: Int32
        package var events: pa_io_event_flags_t
        package let callback: pa_io_event_cb_t?
        package let userdata: UnsafeMutableRawPointer?
        package var destroy: pa_io_event_destroy_cb_t?
        package var dead = false

        package init(loop: PulseMainLoop, fd: Int32, events: pa_io_event_flags_t, callback: pa_io_event_cb_t?,
             userdata: UnsafeMutableRawPointer?) {
            self.loop = loop
            self.fd = fd
            self.events = events
            self.callback = callback
            self.userdata = userdata
        }
    }

    package final class TimeEvent {
        package unowned let loop: PulseMainLoop
        /// Monotonic microseconds; nil while disabled.
        package var deadline: Int64?
        package let callback: pa_time_event_cb_t?
        package let userdata: UnsafeMutableRawPointer?
        package var destroy: pa_time_event_destroy_cb_t?
        package var dead = false

        package init(loop: PulseMainLoop, deadline: Int64?, callback: pa_time_event_cb_t?, userdata: UnsafeMutableRawPointer?) {
            self.loop = loop
            self.deadline = deadline
            self.callback = callback
            self.userdata = userdata
        }
    }

    package final class DeferEvent {
        package unowned let loop: PulseMainLoop
        package var enabled = true
        package let callback: pa_defer_event_cb_t?
        package let userdata: UnsafeMutableRawPointer?
        package var destroy: pa_defer_event_destroy_cb_t?
        package var dead = false

        package init(loop: PulseMainLoop, callback: pa_defer_event_cb_t?, userdata: UnsafeMutableRawPointer?) {
            self.loop = loop
            self.callback = callback
            self.userdata = userdata
        }
    }

    /// What libpulse is given; its `userdata` points back at this loop.
    package let api: UnsafeMutablePointer<pa_mainloop_api>
    package private(set) var ioEvents: [IOEvent] = [] { didSet { cachedRequests = nil } }
    /// The loop asks every turn; libpulse changes its descriptors rarely.
    private var cachedRequests: [LoopPollRequest]?
    package private(set) var timeEvents: [TimeEvent] = []
    package private(set) var deferEvents: [DeferEvent] = []

    package init() {
        api = .allocate(capacity: 1)
        api.initialize(to: pa_mainloop_api(
            userdata: nil,
            io_new: { api, fd, events, callback, userdata in
                let loop = PulseMainLoop.from(api)
                let event = IOEvent(loop: loop, fd: fd, events: events, callback: callback, userdata: userdata)
                loop.ioEvents.append(event)
                return OpaquePointer(Unmanaged.passUnretained(event).toOpaque())
            },
            io_enable: { pointer, events in
                let event = PulseMainLoop.io(pointer)
                event.events = events
                event.loop.cachedRequests = nil
            },
            io_free: { pointer in
                let event = PulseMainLoop.io(pointer)
                event.dead = true
                let loop = event.loop
                loop.ioEvents.removeAll { $0 === event }
                event.destroy?(loop.api, pointer, event.userdata)
            },
            io_set_destroy: { event, destroy in PulseMainLoop.io(event).destroy = destroy },
            time_new: { api, timeval, callback, userdata in
                let loop = PulseMainLoop.from(api)
                let event = TimeEvent(loop: loop, deadline: timeval.map(PulseMainLoop.monotonicMicroseconds), callback: callback,
                                      userdata: userdata)
                loop.timeEvents.append(event)
                return OpaquePointer(Unmanaged.passUnretained(event).toOpaque())
            },
            time_restart: { event, timeval in
                PulseMainLoop.time(event).deadline = timeval.map(PulseMainLoop.monotonicMicroseconds)
            },
            time_free: { pointer in
                let event = PulseMainLoop.time(pointer)
                event.dead = true
                let loop = event.loop
                loop.timeEvents.removeAll { $0 === event }
                event.destroy?(loop.api, pointer, event.userdata)
            },
            time_set_destroy: { event, destroy in PulseMainLoop.time(event).destroy = destroy },
            defer_new: { api, callback, userdata in
                let loop = PulseMainLoop.from(api)
                let event = DeferEvent(loop: loop, callback: callback, userdata: userdata)
                loop.deferEvents.append(event)
                return OpaquePointer(Unmanaged.passUnretained(event).toOpaque())
            },
            defer_enable: { event, enabled in PulseMainLoop.deferred(event).enabled = enabled != 0 },
            defer_free: { pointer in
                let event = PulseMainLoop.deferred(pointer)
                event.dead = true
                let loop = event.loop
                loop.deferEvents.removeAll { $0 === event }
                event.destroy?(loop.api, pointer, event.userdata)
            },
            defer_set_destroy: { event, destroy in PulseMainLoop.deferred(event).destroy = destroy },
            // A client's request to leave the loop; ours ends with the player.
            quit: { _, _ in }))
        api.pointee.userdata = Unmanaged.passUnretained(self).toOpaque()
    }

    /// Free the context first: libpulse frees its events through this loop.
    deinit {
        api.deinitialize(count: 1)
        api.deallocate()
    }

    // MARK: Driving it from the player's loop

    /// The enabled descriptors with poll's bits for what libpulse waits on.
    package var pollRequests: [LoopPollRequest] {
        if let cachedRequests { return cachedRequests }
        var requests: [LoopPollRequest] = []
        for event in ioEvents where !event.dead {
            var bits: Int16 = 0
            if event.events.rawValue & PA_IO_EVENT_INPUT.rawValue != 0 { bits |= Int16(POLLIN) }
            if event.events.rawValue & PA_IO_EVENT_OUTPUT.rawValue != 0 { bits |= Int16(POLLOUT) }
            guard bits != 0 else { continue }
            if let index = requests.firstIndex(where: { $0.fd == event.fd }) {
                requests[index].events |= bits
            } else {
                requests.append(LoopPollRequest(fd: event.fd, events: bits))
            }
        }
        cachedRequests = requests
        return requests
    }

    /// Zero while a deferred event is enabled (libpulse's own loop does not
    /// sleep then either), else until the next timer, rounded up so the loop
    /// does not wake a moment early and spin; nil without timers.
    package var wakeWithinMilliseconds: Int? {
        for event in deferEvents where event.enabled && !event.dead { return 0 }
        var next: Int64?
        for event in timeEvents where !event.dead {
            guard let deadline = event.deadline else { continue }
            next = min(next ?? deadline, deadline)
        }
        guard let next else { return nil }
        let remaining = next - Self.nowMicroseconds()
        return remaining <= 0 ? 0 : Int((remaining + 999) / 1000)
    }

    /// Runs what is due: enabled deferred events, expired timers, then the
    /// callbacks of descriptors that `poll` found ready.
    package func dispatch(ready: [LoopPollRequest]) {
        for event in deferEvents where event.enabled && !event.dead {
            event.callback?(api, pointer(event), event.userdata)
        }
        let now = Self.nowMicroseconds()
        for event in timeEvents where !event.dead {
            guard let deadline = event.deadline, deadline <= now else { continue }
            // Disarmed before the call, as libpulse's own loop does: the
            // callback re-arms it with time_restart when it wants another.
            event.deadline = nil
            var timeval = Self.timeval(microseconds: deadline)
            event.callback?(api, pointer(event), &timeval, event.userdata)
        }
        for occurred in ready {
            for event in ioEvents where event.fd == occurred.fd && !event.dead {
                var flags: UInt32 = 0
                if occurred.events & Int16(POLLIN) != 0 { flags |= PA_IO_EVENT_INPUT.rawValue }
                if occurred.events & Int16(POLLOUT) != 0 { flags |= PA_IO_EVENT_OUTPUT.rawValue }
                if occurred.events & Int16(POLLHUP) != 0 { flags |= PA_IO_EVENT_HANGUP.rawValue }
                if occurred.events & Int16(POLLERR) != 0 { flags |= PA_IO_EVENT_ERROR.rawValue }
                let wanted = event.events.rawValue | PA_IO_EVENT_HANGUP.rawValue | PA_IO_EVENT_ERROR.rawValue
                guard flags & wanted != 0 else { continue }
                event.callback?(api, pointer(event), event.fd, pa_io_event_flags_t(flags & wanted), event.userdata)
            }
        }
    }

    // MARK: Pointers and time

    private func pointer(_ event: AnyObject) -> OpaquePointer {
        OpaquePointer(Unmanaged.passUnretained(event).toOpaque())
    }

    private static func from(_ api: UnsafeMutablePointer<pa_mainloop_api>?) -> PulseMainLoop {
        // libpulse passes back the api it was given, whose userdata is this loop.
        Unmanaged<PulseMainLoop>.fromOpaque(api!.pointee.userdata).takeUnretainedValue()
    }

    private static func io(_ pointer: OpaquePointer?) -> IOEvent {
        Unmanaged<IOEvent>.fromOpaque(UnsafeRawPointer(pointer!)).takeUnretainedValue()
    }

    private static func time(_ pointer: OpaquePointer?) -> TimeEvent {
        Unmanaged<TimeEvent>.fromOpaque(UnsafeRawPointer(pointer!)).takeUnretainedValue()
    }

    private static func deferred(_ pointer: OpaquePointer?) -> DeferEvent {
        Unmanaged<DeferEvent>.fromOpaque(UnsafeRawPointer(pointer!)).takeUnretainedValue()
    }

    package static func nowMicroseconds(_ clock: clockid_t = CLOCK_MONOTONIC) -> Int64 {
        var now = timespec()
        clock_gettime(clock, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }

    /// libpulse's deadlines are on the monotonic clock when it marks them so
    /// (its own timers do), else wall-clock times, moved onto the monotonic clock.
    private static func monotonicMicroseconds(_ timeval: UnsafePointer<timeval>) -> Int64 {
        let now = nowMicroseconds()
        let clock = interlude_pa_timeval_is_monotonic(timeval) != 0 ? now : nowMicroseconds(CLOCK_REALTIME)
        return deadline(interlude_pa_timeval_microseconds(timeval), onClockAt: clock, monotonicNow: now)
    }

    /// A deadline `microseconds` on a clock that reads `clock` now, on the
    /// monotonic clock that reads `monotonicNow`. libpulse's deadlines are
    /// seconds away: one beyond a day either way is damage, clamped so that
    /// the waits computed from it cannot overflow.
    package static func deadline(_ microseconds: Int64, onClockAt clock: Int64, monotonicNow: Int64) -> Int64 {
        let day: Int64 = 86_400_000_000
        let (away, overflow) = microseconds.subtractingReportingOverflow(clock)
        return monotonicNow + (overflow ? (microseconds < 0 ? -day : day) : min(max(away, -day), day))
    }

    private static func timeval(microseconds: Int64) -> timeval {
        Glibc.timeval(tv_sec: Int(microseconds / 1_000_000), tv_usec: Int(microseconds % 1_000_000))
    }
}
