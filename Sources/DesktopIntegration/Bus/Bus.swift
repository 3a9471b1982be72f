import PlayerModel
import CSystemd
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// A failed sd-bus call: which one, and sd-bus's own message (its `-errno`
/// as the C library words it, or the bus error a peer sent).
package struct BusError: Error, CustomStringConvertible, Equatable {
    package let call: String
    package let message: String
    /// The D-Bus error's name a peer answered with (`org.freedesktop.DBus.Error.AccessDenied`), if any.
    package var name: String?

    package init(_ call: String, code: Int32) {
        self.call = call
        message = Errno(-code).message
    }

    package init(_ call: String, message: String) {
        self.call = call
        self.message = message
    }

    package var description: String { "\(call) failed: \(message)" }
}

/// A connection to the session or system bus through sd-bus (loaded with
/// dlopen on first use), driven from the main loop: its descriptor and the
/// events and timeout sd-bus asks for are what `LoopSource` polls, and
/// `process()` does the bus's work after each wait. Main thread only.
package final class Bus {
    package enum Kind { case session, system }

    package private(set) var handle: OpaquePointer?
    private var objects: [UnsafeMutableRawPointer] = []
    private var matches: [OpaquePointer] = []

    /// Loads libsystemd if needed and connects.
    package init(_ kind: Kind) throws(BusError) {
        var text = [CChar](repeating: 0, count: 256)
        guard interlude_sdbus_load(&text, text.count) == 0 else {
            throw BusError("dlopen(libsystemd.so.0)", message: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        var bus: OpaquePointer?
        let result = kind == .session ? interlude_sdbus_open_user(&bus) : interlude_sdbus_open_system(&bus)
        guard result >= 0, let bus else { throw BusError(kind == .session ? "sd_bus_open_user" : "sd_bus_open_system", code: result) }
        handle = bus
    }

    deinit { close() }

    package func close() {
        asked = nil
        for object in objects { interlude_sdbus_object_remove(object) }
        objects.removeAll()
        for slot in matches { interlude_sdbus_slot_unref(slot) }
        matches.removeAll()
        if let handle { interlude_sdbus_close(handle) }
        handle = nil
    }

    /// Gives back the resident pages of libsystemd's read-only segments once
    /// a connection is set up (see `interlude_sdbus_release_code`): about
    /// 0.5 MB of a playing player's peak, and nothing else changes.
    package static func releaseSetUpCode() {
        _ = interlude_sdbus_release_code()
    }

    // MARK: The main loop

    /// What sd-bus asked for after the last thing done with it: what to poll,
    /// and the CLOCK_MONOTONIC microsecond of its next timed work. Kept between
    /// turns, because only our own calls (`process`, a send) change them: a
    /// playing player's idle bus then costs no call into libsystemd per turn,
    /// and no page of its code stays resident for it.
    private var asked: (poll: LoopPollRequest?, deadline: UInt64?)?

    private func ask() -> (poll: LoopPollRequest?, deadline: UInt64?) {
        if let asked { return asked }
        guard let handle else { return (nil, nil) }
        let fd = interlude_sdbus_get_fd(handle)
        let events = interlude_sdbus_get_events(handle)
        var usec: UInt64 = 0
        let timed = interlude_sdbus_get_timeout(handle, &usec) >= 0 && usec != UInt64.max
        let now = (fd >= 0 && events >= 0 ? LoopPollRequest(fd: fd, events: Int16(truncatingIfNeeded: events)) : nil,
                   timed ? usec : nil)
        asked = now
        return now
    }

    /// The descriptor and poll events sd-bus wants now.
    package var pollRequest: LoopPollRequest? {
        guard handle != nil else { return nil }
        return ask().poll
    }

    /// Milliseconds until sd-bus has timed work (a call's timeout), or nil.
    package var wakeWithinMilliseconds: Int? {
        guard handle != nil, let usec = ask().deadline else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        return usec <= nowMicroseconds ? 0 : Int(min((usec - nowMicroseconds + 999) / 1000, UInt64(Int32.max)))
    }

    /// Reads and dispatches what is waiting (method calls reach the exported
    /// objects' handlers from here); a bounded number per turn, so a flood of
    /// messages cannot hold the loop. True when work is left for the next turn.
    @discardableResult
    package func process() throws(BusError) -> Bool {
        guard let handle else { return false }
        // Replies sent from the handlers, and what was read, change what sd-bus wants next.
        asked = nil
        for _ in 0..<64 {
            let result = interlude_sdbus_process(handle)
            if result < 0 { throw BusError("sd_bus_process", code: result) }
            if result == 0 { return false }
        }
        return true
    }

    // MARK: Names, objects, signals

    /// Owns `name` (without queueing or replacing: taken is an error, `EEXIST`).
    package func requestName(_ name: String) throws(BusError) {
        asked = nil
        guard let handle else { throw BusError("sd_bus_request_name", code: -ENOTCONN) }
        let result = interlude_sdbus_request_name(handle, name, 0)
        if result < 0 { throw BusError("sd_bus_request_name(\(name))", code: result) }
    }

    /// Exports `interface` at `path`; its calls and property reads go to `handler`.
    package func export(path: String, interface: String, members: [BusMember], handler: BusObjectHandler) throws(BusError) {
        asked = nil
        guard let handle else { throw BusError("sd_bus_add_object_vtable", code: -ENOTCONN) }
        let box = Unmanaged.passUnretained(handler).toOpaque()
        var object: UnsafeMutableRawPointer?
        let result: Int32 = withCMembers(members) { descriptions in
            interlude_sdbus_add_object(handle, &object, path, interface, descriptions.baseAddress, descriptions.count, box,
                                       { call, userdata, _ in
                                           guard let call, let userdata else { return -EINVAL }
                                           let handler = Unmanaged<BusObjectHandler>.fromOpaque(userdata).takeUnretainedValue()
                                           return handler.dispatchMethod(BusMessage(call))
                                       },
                                       { property, reply, userdata, _ in
                                           guard let property, let reply, let userdata else { return -EINVAL }
                                           let handler = Unmanaged<BusObjectHandler>.fromOpaque(userdata).takeUnretainedValue()
                                           return handler.dispatchGet(String(cString: property), BusMessage(reply))
                                       },
                                       { property, value, userdata, error in
                                           guard let property, let value, let userdata else { return -EINVAL }
                                           let handler = Unmanaged<BusObjectHandler>.fromOpaque(userdata).takeUnretainedValue()
                                           return handler.dispatchSet(String(cString: property), BusMessage(value),
                                                                      BusSetRefusal(error: error))
                                       })
        }
        guard result >= 0, let object else { throw BusError("sd_bus_add_object_vtable(\(interface))", code: result) }
        objects.append(object)
    }

    /// `org.freedesktop.DBus.Properties.PropertiesChanged` for `names`, their values read through the getters.
    package func emitPropertiesChanged(path: String, interface: String, names: [String]) throws(BusError) {
        asked = nil
        guard let handle, !names.isEmpty else { return }
        var pointers = names.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        let result = pointers.withUnsafeMutableBufferPointer {
            interlude_sdbus_emit_properties_changed(handle, path, interface, $0.baseAddress)
        }
        if result < 0 { throw BusError("sd_bus_emit_properties_changed(\(interface))", code: result) }
    }

    /// A signal with arguments appended by `body`.
    package func emitSignal(path: String, interface: String, member: String, _ body: (BusMessage) throws(BusError) -> Void) throws(BusError) {
        asked = nil
        guard let handle else { return }
        var message: OpaquePointer?
        let made = interlude_sdbus_new_signal(handle, &message, path, interface, member)
        guard made >= 0, let message else { throw BusError("sd_bus_message_new_signal(\(member))", code: made) }
        defer { interlude_sdbus_message_unref(message) }
        try body(BusMessage(message))
        let sent = interlude_sdbus_send(handle, message)
        if sent < 0 { throw BusError("sd_bus_send(\(member))", code: sent) }
    }

    /// A new method call with its arguments appended; the caller unrefs it.
    private func methodCall(destination: String, path: String, interface: String, member: String,
                            arguments: (BusMessage) throws(BusError) -> Void,
                            name: String) throws(BusError) -> (OpaquePointer, OpaquePointer) {
        asked = nil
        guard let handle else { throw BusError(name, code: -ENOTCONN) }
        var message: OpaquePointer?
        let made = interlude_sdbus_new_method_call(handle, &message, destination, path, interface, member)
        guard made >= 0, let message else { throw BusError("sd_bus_message_new_method_call(\(member))", code: made) }
        do { try arguments(BusMessage(message)) } catch {
            interlude_sdbus_message_unref(message)
            throw error
        }
        return (handle, message)
    }

    /// A method call that waits for its reply (start-up and tools only: it blocks
    /// for at most `timeoutMicroseconds`). The reply is read inside `read`.
    package func call(destination: String, path: String, interface: String, member: String, timeoutMicroseconds: UInt64 = 2_000_000,
              arguments: (BusMessage) throws(BusError) -> Void = { _ throws(BusError) in },
              read: (BusMessage) throws(BusError) -> Void = { _ throws(BusError) in }) throws(BusError) {
        let (handle, message) = try methodCall(destination: destination, path: path, interface: interface, member: member,
                                               arguments: arguments, name: "sd_bus_call")
        defer { interlude_sdbus_message_unref(message) }
        var error = sd_bus_error()
        defer { interlude_sdbus_error_free(&error) }
        var reply: OpaquePointer?
        let result = interlude_sdbus_call(handle, message, timeoutMicroseconds, &error, &reply)
        guard result >= 0, let reply else {
            if let text = error.message { throw BusError("\(interface).\(member)", message: String(cString: text)) }
            throw BusError("\(interface).\(member)", code: result)
        }
        defer { interlude_sdbus_message_unref(reply) }
        try read(BusMessage(reply))
    }

    /// A method call that does not wait: `done` gets the reply (nil and the
    /// peer's error, or sd-bus's, when it failed or timed out) from a later
    /// `process()`, on the main thread. A bus closed first drops it unanswered.
    package func callAsync(destination: String, path: String, interface: String, member: String, timeoutMicroseconds: UInt64 = 2_000_000,
                   arguments: (BusMessage) throws(BusError) -> Void = { _ throws(BusError) in },
                   done: @escaping (BusMessage?, BusError?) -> Void) throws(BusError) {
        let (handle, message) = try methodCall(destination: destination, path: path, interface: interface, member: member,
                                               arguments: arguments, name: "sd_bus_call_async")
        defer { interlude_sdbus_message_unref(message) }
        let box = Unmanaged.passRetained(BusReply(call: "\(interface).\(member)", done: done)).toOpaque()
        let result = interlude_sdbus_call_async(handle, message, { reply, userdata, _ in
            guard let userdata else { return 0 }
            let pending = Unmanaged<BusReply>.fromOpaque(userdata).takeRetainedValue()
            guard let reply else {
                pending.done(nil, BusError(pending.call, code: -EIO))
                return 0
            }
            if let error = interlude_sdbus_message_get_error(reply), error.pointee.name != nil {
                let name = error.pointee.name.map { String(cString: $0) }
                var failure = BusError(pending.call, message: error.pointee.message.map { String(cString: $0) } ?? name ?? "error")
                failure.name = name
                pending.done(nil, failure)
            } else {
                pending.done(BusMessage(reply), nil)
            }
            return 0
        }, box, timeoutMicroseconds)
        if result < 0 {
            Unmanaged<BusReply>.fromOpaque(box).release()
            throw BusError("sd_bus_call_async(\(member))", code: result)
        }
    }

    /// Calls `handler` for every message matching `rule` (a D-Bus match rule) until the bus closes.
    package func addMatch(_ rule: String, handler: BusMatchHandler) throws(BusError) {
        asked = nil
        guard let handle else { throw BusError("sd_bus_add_match", code: -ENOTCONN) }
        var slot: OpaquePointer?
        let box = Unmanaged.passUnretained(handler).toOpaque()
        let result = interlude_sdbus_add_match(handle, &slot, rule, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            Unmanaged<BusMatchHandler>.fromOpaque(userdata).takeUnretainedValue().received(BusMessage(message))
            return 0
        }, box)
        guard result >= 0, let slot else { throw BusError("sd_bus_add_match", code: result) }
        matches.append(slot)
    }

    private func withCMembers<R>(_ members: [BusMember], _ body: (UnsafeBufferPointer<interlude_sdbus_member>) -> R) -> R {
        // The C side copies every string before this returns.
        var strings: [UnsafeMutablePointer<CChar>?] = []
        defer { for pointer in strings { free(pointer) } }
        func keep(_ text: String) -> UnsafePointer<CChar>? {
            let pointer = strdup(text)
            strings.append(pointer)
            return UnsafePointer(pointer)
        }
        let descriptions = members.map { member in
            interlude_sdbus_member(kind: member.kind.rawValue, member: keep(member.name), signature: keep(member.signature),
                                   result: keep(member.result), flags: member.flags)
        }
        return descriptions.withUnsafeBufferPointer(body)
    }
}

/// One member of an exported interface, as the vtable declares it.
package struct BusMember {
    package enum Kind: Int32 {
        case method = 0, property = 1, writableProperty = 2, signal = 3
    }

    package var kind: Kind
    package var name: String
    package var signature: String
    package var result = ""
    package var flags: UInt64 = 0

    /// sd-bus's vtable flags.
    package static let emitsChange = UInt64(1) << 5
    package static let constant = UInt64(1) << 4
    package static let unprivileged = UInt64(1) << 2

    package static func method(_ name: String, _ signature: String = "", returns result: String = "") -> BusMember {
        BusMember(kind: .method, name: name, signature: signature, result: result, flags: unprivileged)
    }

    package static func property(_ name: String, _ signature: String, flags: UInt64 = emitsChange) -> BusMember {
        BusMember(kind: .property, name: name, signature: signature, flags: flags)
    }

    package static func writable(_ name: String, _ signature: String) -> BusMember {
        BusMember(kind: .writableProperty, name: name, signature: signature, flags: emitsChange | unprivileged)
    }

    package static func signal(_ name: String, _ signature: String) -> BusMember {
        BusMember(kind: .signal, name: name, signature: signature)
    }
}

/// What an exported object answers with. Subclass and override; each returns
/// sd-bus's convention (>= 0 handled, -errno failed).
package class BusObjectHandler {
    /// A method call: reply to it (`BusMessage.reply`) and return 1.
    package func dispatchMethod(_ call: BusMessage) -> Int32 { -ENOSYS }
    /// Append the property's value to `reply`.
    package func dispatchGet(_ property: String, _ reply: BusMessage) -> Int32 { -ENOSYS }
    /// Read the new value from `value`; a value refused is answered through `refusal`.
    package func dispatchSet(_ property: String, _ value: BusMessage, _ refusal: BusSetRefusal) -> Int32 { -EPERM }
}

/// How a property set is refused with a sentence: sd-bus replies to the
/// `Properties.Set` call with the error named here, as `replyError` answers a method.
package struct BusSetRefusal {
    package let error: UnsafeMutablePointer<sd_bus_error>?

    /// The D-Bus error (`org.freedesktop.DBus.Error.InvalidArgs`, say) and its
    /// sentence; returns what the setter returns, the error's negative errno.
    package func refuse(_ name: String, _ text: String) -> Int32 {
        guard let error else { return -EINVAL }
        return interlude_sdbus_error_set(error, name, text)
    }
}

/// An asynchronous call waiting for its reply (`Bus.callAsync`).
private final class BusReply {
    package let call: String
    package let done: (BusMessage?, BusError?) -> Void

    package init(call: String, done: @escaping (BusMessage?, BusError?) -> Void) {
        self.call = call
        self.done = done
    }
}

/// Receives the messages of a match rule.
package class BusMatchHandler {
    package func received(_ message: BusMessage) {}
}
