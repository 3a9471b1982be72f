import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// A borrowed sd-bus message: typed reads and appends, one D-Bus type code
/// each, failures thrown with sd-bus's message.
package struct BusMessage {
    package let pointer: OpaquePointer

    package init(_ pointer: OpaquePointer) { self.pointer = pointer }

    package var member: String? { interlude_sdbus_message_get_member(pointer).map { String(cString: $0) } }
    /// The unique name (`:1.42`) of the connection that sent it.
    package var sender: String? { interlude_sdbus_message_get_sender(pointer).map { String(cString: $0) } }

    // MARK: Appending

    package func append(_ text: String) throws(BusError) {
        try check("append string", text.withCString { interlude_sdbus_append_basic(pointer, CChar(UInt8(ascii: "s")), $0) })
    }

    package func append(objectPath text: String) throws(BusError) {
        try check("append object path", text.withCString { interlude_sdbus_append_basic(pointer, CChar(UInt8(ascii: "o")), $0) })
    }

    package func append(_ value: Bool) throws(BusError) {
        var flag: Int32 = value ? 1 : 0
        try check("append boolean", interlude_sdbus_append_basic(pointer, CChar(UInt8(ascii: "b")), &flag))
    }

    package func append(_ value: Double) throws(BusError) {
        var number = value
        try check("append double", interlude_sdbus_append_basic(pointer, CChar(UInt8(ascii: "d")), &number))
    }

    package func append(_ value: Int64) throws(BusError) {
        var number = value
        try check("append int64", interlude_sdbus_append_basic(pointer, CChar(UInt8(ascii: "x")), &number))
    }

    package func append(unsigned value: UInt64) throws(BusError) {
        var number = value
        try check("append uint64", interlude_sdbus_append_basic(pointer, CChar(UInt8(ascii: "t")), &number))
    }

    package func append(uint32 value: UInt32) throws(BusError) {
        var number = value
        try check("append uint32", interlude_sdbus_append_basic(pointer, CChar(UInt8(ascii: "u")), &number))
    }

    package func append(int32 value: Int32) throws(BusError) {
        var number = value
        try check("append int32", interlude_sdbus_append_basic(pointer, CChar(UInt8(ascii: "i")), &number))
    }

    package func append(strings: [String]) throws(BusError) {
        try container("a", "s") { () throws(BusError) in for text in strings { try append(text) } }
    }

    /// Opens a container (`a`, `v`, `e`, `r`) of `contents`, fills it with `body`, closes it.
    package func container(_ type: Character, _ contents: String, _ body: () throws(BusError) -> Void) throws(BusError) {
        let code = CChar(type.asciiValue ?? 0)
        try check("open container", contents.withCString { interlude_sdbus_open_container(pointer, code, $0) })
        try body()
        try check("close container", interlude_sdbus_close_container(pointer))
    }

    /// One `{sv}` entry of an `a{sv}` dictionary.
    package func entry(_ key: String, variant signature: String, _ body: () throws(BusError) -> Void) throws(BusError) {
        try container("e", "sv") { () throws(BusError) in
            try append(key)
            try container("v", signature, body)
        }
    }

    // MARK: Reading

    package func readString() throws(BusError) -> String {
        var value: UnsafePointer<CChar>?
        try check("read string", interlude_sdbus_read_basic(pointer, CChar(UInt8(ascii: "s")), &value))
        return value.map { String(cString: $0) } ?? ""
    }

    package func readObjectPath() throws(BusError) -> String {
        var value: UnsafePointer<CChar>?
        try check("read object path", interlude_sdbus_read_basic(pointer, CChar(UInt8(ascii: "o")), &value))
        return value.map { String(cString: $0) } ?? ""
    }

    package func readInt64() throws(BusError) -> Int64 {
        var value: Int64 = 0
        try check("read int64", interlude_sdbus_read_basic(pointer, CChar(UInt8(ascii: "x")), &value))
        return value
    }

    package func readUInt32() throws(BusError) -> UInt32 {
        var value: UInt32 = 0
        try check("read uint32", interlude_sdbus_read_basic(pointer, CChar(UInt8(ascii: "u")), &value))
        return value
    }

    package func readDouble() throws(BusError) -> Double {
        var value = 0.0
        try check("read double", interlude_sdbus_read_basic(pointer, CChar(UInt8(ascii: "d")), &value))
        return value
    }

    /// A descriptor (`h`): the message owns the one it holds, so this is a
    /// duplicate (close-on-exec) that the caller owns and closes.
    package func readFileDescriptor() throws(BusError) -> Int32 {
        var value: Int32 = -1
        try check("read unix fd", interlude_sdbus_read_basic(pointer, CChar(UInt8(ascii: "h")), &value))
        let owned = fcntl(value, F_DUPFD_CLOEXEC, 0)
        if owned < 0 { throw BusError("fcntl(F_DUPFD_CLOEXEC)", code: -errno) }
        return owned
    }

    package func readBool() throws(BusError) -> Bool {
        var value: Int32 = 0
        try check("read boolean", interlude_sdbus_read_basic(pointer, CChar(UInt8(ascii: "b")), &value))
        return value != 0
    }

    /// Enters a container (`a`, `v`, `e`, `r`) of `contents`, reads it with `body`, leaves it.
    package func enter<T>(_ type: Character, _ contents: String, _ body: () throws(BusError) -> T) throws(BusError) -> T {
        let code = CChar(type.asciiValue ?? 0)
        try check("enter container", contents.withCString { interlude_sdbus_enter_container(pointer, code, $0) })
        let value = try body()
        try check("exit container", interlude_sdbus_exit_container(pointer))
        return value
    }

    /// The strings of an `as`.
    package func readStrings() throws(BusError) -> [String] {
        try enter("a", "s") { () throws(BusError) in
            var strings: [String] = []
            while try !atEnd() { strings.append(try readString()) }
            return strings
        }
    }

    /// True at the end of the container being read.
    package func atEnd() throws(BusError) -> Bool {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let result = interlude_sdbus_peek_type(pointer, &type, &contents)
        try check("peek type", result)
        return result == 0
    }

    /// The string values in an `a{sv}` dictionary (others skipped), by key.
    package func readStringEntries() throws(BusError) -> [String: String] {
        try enter("a", "{sv}") { () throws(BusError) in
            var entries: [String: String] = [:]
            while try !atEnd() {
                try enter("e", "sv") { () throws(BusError) in
                    let key = try readString()
                    var type: CChar = 0
                    var contents: UnsafePointer<CChar>?
                    try check("peek type", interlude_sdbus_peek_type(pointer, &type, &contents))
                    if let contents, String(cString: contents) == "s" {
                        entries[key] = try enter("v", "s") { () throws(BusError) in try readString() }
                    } else {
                        try check("skip", interlude_sdbus_skip(pointer, "v"))
                    }
                }
            }
            return entries
        }
    }

    // MARK: Replies

    /// Replies to this method call with what `body` appends (nothing by default).
    package func reply(_ body: (BusMessage) throws(BusError) -> Void = { _ throws(BusError) in }) -> Int32 {
        var reply: OpaquePointer?
        let made = interlude_sdbus_new_method_return(pointer, &reply)
        guard made >= 0, let reply else { return made }
        defer { interlude_sdbus_message_unref(reply) }
        do { try body(BusMessage(reply)) } catch { return -EINVAL }
        guard let bus = interlude_sdbus_message_get_bus(pointer) else { return -ENOTCONN }
        let sent = interlude_sdbus_send(bus, reply)
        return sent < 0 ? sent : 1
    }

    /// Replies with a D-Bus error (`org.freedesktop.DBus.Error.Failed`, say) and a sentence.
    package func replyError(_ name: String, _ text: String) -> Int32 {
        let result = interlude_sdbus_reply_error(pointer, name, text)
        return result < 0 ? result : 1
    }

    private func check(_ call: String, _ result: Int32) throws(BusError) {
        if result < 0 { throw BusError("sd_bus_message \(call)", code: result) }
    }
}
