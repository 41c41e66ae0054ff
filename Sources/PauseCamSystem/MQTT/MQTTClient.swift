#if canImport(Glibc)
import Glibc
#endif
import CMosquitto
import Dispatch
import Foundation
import PauseCamCore

/// One MQTT 5 connection to a broker on libmosquitto: QoS 1, retained messages, a last will, credentials and TLS,
/// on libmosquitto's own network thread (`mosquitto_loop_start`), which also reconnects after a loss with
/// exponential backoff (`mosquitto_reconnect_delay_set`). Every connect subscribes again (the session starts
/// clean), and `connected` is reported only once the broker acknowledged the subscriptions.
///
/// Owns its `struct mosquitto *` (destroyed when the client is released) and nothing of the caller's: messages are
/// copied out of libmosquitto's buffers before they are handed on.
///
/// Threads: events come on libmosquitto's network thread; `publish` may be called from any thread, the events
/// closure included. libmosquitto documents this: "libmosquitto provides thread safe operation, with the exception
/// of mosquitto_lib_init" (`mosquitto.h`, Topic: Threads, 2.0.11), and with the threaded loop a publish from
/// another thread queues its packet under the library's lock and wakes the loop through its socket pair
/// (`lib/packet_mosq.c`, `packet__queue`). `stop()` waits for the network thread, so it must not be called from the
/// events closure.
///
/// Where libmosquitto stops by itself, this client decides: a refused CONNACK ends its loop (MQTT 5 refusals are a
/// protocol error to it), which is right for credentials and reported as `refused`; a broker's DISCONNECT also
/// ends its loop, and this client starts it again after the reconnect delay, unless another client took the session
/// over.
/// Unchecked Sendable: the handle (a C pointer) is used only through libmosquitto's thread-safe calls, and the loop's
/// start, restart and stop only under `lifecycle`; the rest of the state is in `state`.
public final class MQTTClient: @unchecked Sendable {
    /// What the callbacks and the callers share.
    private struct State {
        var events: (@Sendable (Event) -> Void)?
        var subscriptions: [String] = []
        /// The message id of the SUBSCRIBE sent on the current connection.
        var subscribeMessageID: Int32?
        /// `stop()` began: nothing more is reported.
        var stopping = false
        /// A final refusal was reported: nothing more is reported.
        var refused = false
        /// Restarts of the network loop since the last connect, for their backoff.
        var restarts = 0
        /// The library's last error-level log line (OpenSSL's text for a TLS failure).
        var lastLibraryError: String?
        /// `start` is connecting on the caller's thread: a failure there is thrown, not reported.
        var connectingInStart = false
        /// The first connection attempt was answered (a CONNACK, a refusal or a failure was reported): the
        /// first-answer timer has nothing to say.
        var firstAnswered = false
    }

    public let options: Options
    /// libmosquitto's client; used only through its thread-safe calls.
    let handle: OpaquePointer
    private let state = Guarded(State())
    /// Whether the network thread runs; held while it is started, restarted or stopped (never by a callback).
    private let lifecycle = Guarded(false)

    /// libmosquitto's global set-up, once per process; its cleanup is left to the process's end (the library
    /// holds nothing a process exit does not release). `mosquitto_lib_init` is not thread-safe; a `static let`
    /// initialiser runs once, under Swift's lock.
    private static let libraryReady: Void = { _ = mosquitto_lib_init() }()

    /// Creates the client and applies its options: MQTT 5, credentials, TLS. Nothing connects until `start`.
    public init(options: Options) throws(MQTTError) {
        _ = Self.libraryReady
        guard let handle = mosquitto_new(options.clientID, true, nil) else {
            throw .call("mosquitto_new(\(options.clientID))", code: Int32(MOSQ_ERR_NOMEM.rawValue),
                        message: MQTTError.libraryText(Int32(MOSQ_ERR_NOMEM.rawValue)))
        }
        self.handle = handle
        self.options = options
        try configure()
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_connect_v5_callback_set(handle, onConnect)
        mosquitto_subscribe_v5_callback_set(handle, onSubscribe)
        mosquitto_message_v5_callback_set(handle, onMessage)
        mosquitto_disconnect_v5_callback_set(handle, onDisconnect)
        mosquitto_log_callback_set(handle, onLog)
    }

    deinit {
        stop()
        mosquitto_destroy(handle)
    }

    private func configure() throws(MQTTError) {
        try MQTTError.check(mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5),
                            "mosquitto_int_option(MOSQ_OPT_PROTOCOL_VERSION, 5)")
        if let username = options.username {
            try MQTTError.check(mosquitto_username_pw_set(handle, username, options.password),
                                "mosquitto_username_pw_set(\(username))")
        }
        if options.broker.usesTLS {
            let tls = options.tls
            if tls.caFile == nil {
                try MQTTError.check(mosquitto_int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1),
                                    "mosquitto_int_option(MOSQ_OPT_TLS_USE_OS_CERTS)")
            }
            if tls.caFile != nil || tls.certificateFile != nil {
                let code = mosquitto_tls_set(handle, tls.caFile, nil, tls.certificateFile, tls.keyFile, nil)
                if code != Int32(MOSQ_ERR_SUCCESS.rawValue) {
                    let files = [("cafile", tls.caFile), ("certfile", tls.certificateFile), ("keyfile", tls.keyFile)]
                        .compactMap { name, path in path.map { "\(name) \($0)" } }.joined(separator: ", ")
                    throw .tlsFiles(files, message: MQTTError.libraryText(code))
                }
            }
        }
        let delay = UInt32(max(1, options.reconnectDelaySeconds))
        try MQTTError.check(
            mosquitto_reconnect_delay_set(handle, delay, max(delay, UInt32(options.maximumReconnectDelaySeconds)), true),
            "mosquitto_reconnect_delay_set")
    }

    /// Connects in the background and starts the network thread. `will` is set before connecting and published
    /// (at QoS 1) by the broker if this client vanishes without `stop()`. A broker that cannot be reached yet is
    /// not an error: the network thread keeps trying, and `connected` comes when it answers. Throws for what a
    /// retry cannot fix: a will the library refuses, a TLS handshake that fails at once (a broker on a nearby host
    /// answers within the call; a farther one fails later, as a `refused` event), no thread.
    public func start(subscriptions: [String], will: GroupBusMessage?,
                      events: @escaping @Sendable (Event) -> Void) throws(MQTTError) {
        let failedAtOnce = try lifecycle.withLock { started throws(MQTTError) -> String? in
            precondition(!started, "MQTTClient.start called twice")
            state.withLock { shared in
                shared.events = events
                shared.subscriptions = subscriptions
            }
            if let will {
                let code = will.payload.withUnsafeBytes {
                    mosquitto_will_set_v5(handle, will.topic, Int32($0.count), $0.baseAddress, 1, will.retained, nil)
                }
                try MQTTError.check(code, "mosquitto_will_set_v5(\(will.topic))")
            }
            state.withLock { shared in shared.connectingInStart = true }
            let code = mosquitto_connect_async(handle, options.broker.host, Int32(options.broker.port),
                                               Int32(max(5, options.keepAliveSeconds)))
            let failedAtOnce = code == Int32(MOSQ_ERR_ERRNO.rawValue) || code == Int32(MOSQ_ERR_EAI.rawValue)
                ? MQTTError.libraryText(code) : nil
            state.withLock { shared in shared.connectingInStart = false }
            if code == Int32(MOSQ_ERR_TLS.rawValue) {
                let logged = state.withLock { shared in shared.lastLibraryError }
                throw .tlsHandshake(broker: options.broker.description,
                                    reason: logged ?? MQTTError.libraryText(code))
            }
            if code != Int32(MOSQ_ERR_SUCCESS.rawValue) && code != Int32(MOSQ_ERR_ERRNO.rawValue)
                && code != Int32(MOSQ_ERR_EAI.rawValue) {
                throw .call("mosquitto_connect_async(\(options.broker))", code: code,
                            message: MQTTError.libraryText(code))
            }
            try MQTTError.check(mosquitto_loop_start(handle), "mosquitto_loop_start")
            started = true
            return failedAtOnce
        }
        // libmosquitto's loop retries a connection that failed without calling back: say so here, once.
        if let failedAtOnce {
            firstAttemptFailed(reason: failedAtOnce)
        } else {
            let seconds = max(1, options.firstAnswerSeconds)
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) { [weak self] in
                self?.firstAttemptFailed(reason: "no answer within \(seconds) s")
            }
        }
    }

    /// Reports the first connection's failure as `lost` (`MQTTError.unreachable`) unless it was answered already.
    private func firstAttemptFailed(reason: String) {
        let unanswered = state.withLock { shared in
            defer { shared.firstAnswered = true }
            return !shared.firstAnswered
        }
        guard unanswered else { return }
        report(.lost(.unreachable(broker: options.broker.description, reason: reason)))
    }

    /// Publishes at QoS 1; `message.retained` asks the broker to keep it as the topic's last message. While the
    /// connection is down the message waits in libmosquitto's queue and goes out after the reconnect.
    public func publish(_ message: GroupBusMessage) throws(MQTTError) {
        let code = message.payload.withUnsafeBytes {
            mosquitto_publish_v5(handle, nil, message.topic, Int32($0.count), $0.baseAddress, 1, message.retained, nil)
        }
        try MQTTError.check(code, "mosquitto_publish_v5(\(message.topic))")
    }

    /// Says goodbye (an MQTT DISCONNECT, so the broker discards the will) and waits for the network thread to end;
    /// no event comes after it returns. Idempotent.
    public func stop() {
        state.withLock { shared in shared.stopping = true }
        lifecycle.withLock { started in
            guard started else { return }
            started = false
            _ = mosquitto_disconnect_v5(handle, Int32(MQTT_RC_NORMAL_DISCONNECTION.rawValue), nil)
            _ = mosquitto_loop_stop(handle, false)
        }
    }

    // MARK: - Callbacks (libmosquitto's network thread)

    /// Hands an event to the owner unless `stop()` began or a refusal was final. Called without `state` held, so
    /// the owner may publish from its closure.
    fileprivate func report(_ event: Event) {
        let events: (@Sendable (Event) -> Void)? = state.withLock { shared in
            if shared.stopping || shared.refused { return nil }
            if case .refused = event { shared.refused = true }
            return shared.events
        }
        events?(event)
    }

    fileprivate func connectAnswered(reasonCode: Int32) {
        state.withLock { shared in shared.firstAnswered = true }
        guard reasonCode == Int32(MQTT_RC_SUCCESS.rawValue) else {
            // libmosquitto ends its loop after an MQTT 5 refusal; the refusal is final here too.
            report(.refused(MQTTError.connectionRefusal(broker: options.broker.description, code: reasonCode)))
            return
        }
        let topics = state.withLock { shared in
            shared.restarts = 0
            return shared.subscriptions
        }
        guard !topics.isEmpty else {
            report(.connected)
            return
        }
        var messageID: Int32 = 0
        let duplicates = topics.map { strdup($0) }
        defer { duplicates.forEach { free($0) } }
        let code = duplicates.withUnsafeBufferPointer { pointers in
            pointers.withMemoryRebound(to: UnsafeMutablePointer<CChar>?.self) {
                mosquitto_subscribe_multiple(handle, &messageID, Int32(topics.count), $0.baseAddress, 1, 0, nil)
            }
        }
        if code != Int32(MOSQ_ERR_SUCCESS.rawValue) {
            report(.lost(.call("mosquitto_subscribe_multiple(\(topics.joined(separator: ", ")))", code: code,
                               message: MQTTError.libraryText(code))))
            return
        }
        state.withLock { shared in shared.subscribeMessageID = messageID }
    }

    fileprivate func subscriptionAnswered(messageID: Int32, grantedQoS: [Int32]) {
        let topics: [String]? = state.withLock { shared in
            guard shared.subscribeMessageID == messageID else { return nil }
            shared.subscribeMessageID = nil
            return shared.subscriptions
        }
        guard let topics else { return }
        // SUBACK reason codes: 0, 1, 2 are the granted QoS; 0x80 and above refuse that filter.
        let refused = zip(topics, grantedQoS).filter { $0.1 >= 0x80 }.map(\.0)
        if refused.isEmpty {
            report(.connected)
        } else {
            report(.refused(.subscriptionRefused(broker: options.broker.description, topics: refused)))
            _ = mosquitto_disconnect_v5(handle, Int32(MQTT_RC_NORMAL_DISCONNECTION.rawValue), nil)
        }
    }

    fileprivate func messageArrived(_ message: mosquitto_message) {
        let topic = message.topic.map { String(cString: $0) } ?? ""
        var payload: [UInt8] = []
        if let bytes = message.payload, message.payloadlen > 0 {
            payload = Array(UnsafeRawBufferPointer(start: bytes, count: Int(message.payloadlen)))
        }
        report(.message(GroupBusMessage(topic: topic, payload: payload, retained: message.retain)))
    }

    /// `code` is either a `MOSQ_ERR_*` (the library lost the connection: it reconnects by itself unless the code
    /// is one its loop gives up on) or, when the broker sent a DISCONNECT, that packet's MQTT 5 reason code (0, 4,
    /// or 128 and above); after a DISCONNECT libmosquitto's loop ends.
    fileprivate func connectionEnded(code: Int32) {
        state.withLock { shared in shared.firstAnswered = true }
        let broker = options.broker.description
        let fromBroker = code == 0 || code == Int32(MQTT_RC_DISCONNECT_WITH_WILL_MSG.rawValue) || code >= 0x80
        if fromBroker {
            if code == Int32(MQTT_RC_SESSION_TAKEN_OVER.rawValue) {
                report(.refused(.sessionTakenOver(broker: broker, clientID: options.clientID)))
                return
            }
            report(.lost(.disconnectedByBroker(broker: broker, code: code, reason: MQTTError.reasonText(code))))
            restartLoopAfterDelay()
            return
        }
        let reason = MQTTError.libraryText(code)
        if code == Int32(MOSQ_ERR_TLS.rawValue) {
            let logged = state.withLock { shared in shared.lastLibraryError }
            report(.refused(.tlsHandshake(broker: broker, reason: logged ?? reason)))
            return
        }
        if Self.loopGivesUp(on: code) {
            // A refused CONNACK was reported already (and ended reporting); anything else is reported as lost and
            // the loop is started again, since libmosquitto will not.
            report(.lost(.connectionLost(broker: broker, reason: reason)))
            restartLoopAfterDelay()
        } else {
            report(.lost(.connectionLost(broker: broker, reason: reason)))
        }
    }

    /// Keeps the library's error lines. An OpenSSL error ends libmosquitto's loop (`MOSQ_ERR_TLS`), and 2.0.11 calls
    /// no disconnect callback for it (2.0.13 does), so the error line is also where the refusal is reported.
    fileprivate func libraryLogged(level: Int32, text: String) {
        guard level == MOSQ_LOG_ERR else { return }
        let inStart = state.withLock { shared in
            shared.lastLibraryError = text
            return shared.connectingInStart
        }
        if text.hasPrefix("OpenSSL Error") && !inStart {
            report(.refused(.tlsHandshake(broker: options.broker.description, reason: text)))
        }
    }

    /// The codes on which `mosquitto_loop_forever` returns instead of reconnecting (libmosquitto 2.0,
    /// `lib/loop.c`).
    private static func loopGivesUp(on code: Int32) -> Bool {
        let fatal: [mosq_err_t] = [MOSQ_ERR_NOMEM, MOSQ_ERR_PROTOCOL, MOSQ_ERR_INVAL, MOSQ_ERR_NOT_FOUND, MOSQ_ERR_TLS,
                                   MOSQ_ERR_PAYLOAD_SIZE, MOSQ_ERR_NOT_SUPPORTED, MOSQ_ERR_AUTH,
                                   MOSQ_ERR_ACL_DENIED, MOSQ_ERR_UNKNOWN, MOSQ_ERR_EAI, MOSQ_ERR_PROXY]
        return fatal.contains { Int32($0.rawValue) == code }
    }

    /// Starts libmosquitto's network loop again after it ended by itself, once the backoff delay has passed (on a
    /// global queue: the loop's own thread cannot wait for itself to end). Nothing happens if `stop()` came first or
    /// a refusal was final.
    private func restartLoopAfterDelay() {
        let restarts = state.withLock { shared in
            shared.restarts += 1
            return shared.restarts
        }
        let minimum = max(1, options.reconnectDelaySeconds)
        let delay = min(max(minimum, options.maximumReconnectDelaySeconds), minimum * restarts * restarts)
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(delay)) { [self] in
            lifecycle.withLock { started in
                let finished = state.withLock { shared in shared.stopping || shared.refused }
                guard started, !finished else { return }
                _ = mosquitto_loop_stop(handle, false)
                let code = mosquitto_reconnect_async(handle)
                if code != Int32(MOSQ_ERR_SUCCESS.rawValue) && code != Int32(MOSQ_ERR_ERRNO.rawValue)
                    && code != Int32(MOSQ_ERR_EAI.rawValue) {
                    report(.refused(.call("mosquitto_reconnect_async(\(options.broker))", code: code,
                                          message: MQTTError.libraryText(code))))
                    started = false
                    return
                }
                if mosquitto_loop_start(handle) != Int32(MOSQ_ERR_SUCCESS.rawValue) {
                    report(.refused(.call("mosquitto_loop_start", code: Int32(MOSQ_ERR_ERRNO.rawValue),
                                          message: MQTTError.libraryText(Int32(MOSQ_ERR_ERRNO.rawValue)))))
                    started = false
                }
            }
        }
    }
}

/// The client a callback belongs to, from the user data pointer it was given.
private func client(_ userData: UnsafeMutableRawPointer?) -> MQTTClient? {
    userData.map { Unmanaged<MQTTClient>.fromOpaque($0).takeUnretainedValue() }
}

private let onConnect: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32, Int32, OpaquePointer?)
    -> Void = { _, userData, reasonCode, _, _ in
        client(userData)?.connectAnswered(reasonCode: reasonCode)
    }

private let onSubscribe: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32, Int32,
                                          UnsafePointer<Int32>?, OpaquePointer?) -> Void = {
    _, userData, messageID, count, granted, _ in
    let codes = granted.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? []
    client(userData)?.subscriptionAnswered(messageID: messageID, grantedQoS: codes)
}

private let onMessage: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafePointer<mosquitto_message>?,
                                        OpaquePointer?) -> Void = { _, userData, message, _ in
    guard let message else { return }
    client(userData)?.messageArrived(message.pointee)
}

private let onDisconnect: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32, OpaquePointer?)
    -> Void = { _, userData, code, _ in
        client(userData)?.connectionEnded(code: code)
    }

private let onLog: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?) -> Void = {
    _, userData, level, text in
    guard let text else { return }
    client(userData)?.libraryLogged(level: level, text: String(cString: text))
}
