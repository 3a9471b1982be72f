import CPulse
#if canImport(Glibc)
import Glibc
#endif

/// What went wrong with the sound server, in libpulse's own words.
package enum SoundServerError: Error, Equatable, CustomStringConvertible {
    /// libpulse could not be loaded (dlopen's or dlsym's message).
    case libraryUnavailable(String)
    /// The server refused, went away or never answered (`pa_strerror`'s text).
    case server(String)

    package var description: String {
        switch self {
        case .libraryUnavailable(let message): "libpulse could not be loaded: \(message)"
        case .server(let message): message
        }
    }
}

/// Another client's playback stream (a sink input) as the player needs it.
package struct DesktopStream: Equatable {
    package var index: UInt32
    /// `media.role`: `phone`, `alarm`, `event`, `music`, ... or nil.
    package var role: String?
    /// `application.name`, else the stream's own name.
    package var program: String
    /// `application.process.id`, to recognise the player's own streams.
    package var processID: Int32?
    package var corked: Bool
    /// `application.id`: another Interlude's streams say `interlude`.
    package var applicationID: String? = nil

    package init(index: UInt32, role: String? = nil, program: String, processID: Int32? = nil, corked: Bool, applicationID: String? = nil) {
        self.index = index
        self.role = role
        self.program = program
        self.processID = processID
        self.corked = corked
        self.applicationID = applicationID
    }
}

/// A thin wrapper over one `pa_context` subscribed to sink-input events, on a
/// `PulseMainLoop`: connection state, new and changed streams (with their
/// properties read) and removed ones reach the closures below, always from
/// inside `PulseMainLoop.dispatch`. Release it outside a dispatch (its deinit
/// disconnects, which frees events of the loop being dispatched).
package final class SoundServerConnection {
    package enum State: Equatable {
        case connecting
        case ready
        case failed(SoundServerError)
    }

    package var onState: ((State) -> Void)?
    package var onStream: ((DesktopStream) -> Void)?
    package var onStreamRemoved: ((UInt32) -> Void)?

    private let context: OpaquePointer

    /// Loads libpulse (once) and starts connecting: to `server` when given,
    /// else where libpulse looks by itself (`PULSE_SERVER`, client.conf, the
    /// user's runtime directory). Never spawns a server.
    package init(loop: PulseMainLoop, server: String?) throws(SoundServerError) {
        var message = [CChar](repeating: 0, count: 512)
        guard interlude_pulse_load(&message, message.count) == 0 else {
            throw .libraryUnavailable(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let context = interlude_pa_context_new(loop.api, "interlude desktop interruptions") else {
            throw .server("libpulse could not make a context")
        }
        self.context = context
        let me = Unmanaged.passUnretained(self).toOpaque()
        interlude_pa_context_set_state_callback(context, { _, userdata in
            SoundServerConnection.from(userdata).stateChanged()
        }, me)
        interlude_pa_context_set_subscribe_callback(context, { _, type, index, userdata in
            SoundServerConnection.from(userdata).subscriptionEvent(type, index: index)
        }, me)
        let result: Int32 = if let server {
            server.withCString { interlude_pa_context_connect(context, $0, PA_CONTEXT_NOAUTOSPAWN) }
        } else {
            interlude_pa_context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN)
        }
        // Thrown after every property is set, so deinit still runs and frees the context.
        if result < 0 { throw .server(Self.text(of: interlude_pa_context_errno(context))) }
    }

    deinit {
        clearCallbacks()
        // Disconnecting cancels pending operations without calling them back.
        interlude_pa_context_disconnect(context)
        interlude_pa_context_unref(context)
    }

    private func clearCallbacks() {
        interlude_pa_context_set_state_callback(context, nil, nil)
        interlude_pa_context_set_subscribe_callback(context, nil, nil)
    }

    private static func from(_ userdata: UnsafeMutableRawPointer?) -> SoundServerConnection {
        // The callbacks are cleared before this object goes away (deinit), so
        // the pointer they carry is always this live object.
        Unmanaged<SoundServerConnection>.fromOpaque(userdata!).takeUnretainedValue()
    }

    private static func text(of error: Int32) -> String {
        interlude_pa_strerror(error).map { String(cString: $0) } ?? "error \(error)"
    }

    // MARK: libpulse's callbacks

    private func stateChanged() {
        switch interlude_pa_context_get_state(context) {
        case PA_CONTEXT_READY:
            // Subscribe first, then list what already plays: a stream made in
            // between is reported by both, which the listener takes as a change.
            let me = Unmanaged.passUnretained(self).toOpaque()
            if let operation = interlude_pa_context_subscribe(context, PA_SUBSCRIPTION_MASK_SINK_INPUT, nil, nil) {
                interlude_pa_operation_unref(operation)
            }
            if let operation = interlude_pa_context_get_sink_input_info_list(context, { _, info, eol, userdata in
                guard eol == 0, let info else { return }
                SoundServerConnection.from(userdata).received(info.pointee)
            }, me) {
                interlude_pa_operation_unref(operation)
            }
            onState?(.ready)
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            onState?(.failed(.server(Self.text(of: interlude_pa_context_errno(context)))))
        default:
            onState?(.connecting)
        }
    }

    private func subscriptionEvent(_ type: pa_subscription_event_type_t, index: UInt32) {
        guard type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue == PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue
        else { return }
        switch type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue {
        case PA_SUBSCRIPTION_EVENT_REMOVE.rawValue:
            onStreamRemoved?(index)
        default:
            // New or changed (corked, uncorked, properties): read it again.
            let me = Unmanaged.passUnretained(self).toOpaque()
            if let operation = interlude_pa_context_get_sink_input_info(context, index, { _, info, eol, userdata in
                // eol < 0: the stream went away before the answer; its removal follows.
                guard eol == 0, let info else { return }
                SoundServerConnection.from(userdata).received(info.pointee)
            }, me) {
                interlude_pa_operation_unref(operation)
            }
        }
    }

    private func received(_ info: pa_sink_input_info) {
        func property(_ key: String) -> String? {
            guard let proplist = info.proplist, let value = interlude_pa_proplist_gets(proplist, key) else { return nil }
            return String(cString: value)
        }
        let name = info.name.map { String(cString: $0) } ?? "stream \(info.index)"
        onStream?(DesktopStream(index: info.index, role: property("media.role"),
                                program: property("application.name") ?? name,
                                processID: property("application.process.id").flatMap { Int32($0) },
                                corked: info.corked != 0, applicationID: property("application.id")))
    }
}
