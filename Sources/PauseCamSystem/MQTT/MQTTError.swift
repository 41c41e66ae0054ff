#if canImport(Glibc)
import Glibc
#endif
import CMosquitto

/// Why talking to an MQTT broker failed: which libmosquitto call with which code, or what the broker answered, in
/// words a user can act on. The library's own text comes from `mosquitto_strerror` (its error codes),
/// `mosquitto_reason_string` (MQTT 5 reason codes) and `strerror` (when the library reports an errno).
public enum MQTTError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The broker refused the connection because of the credentials: MQTT 5 reason 134 "bad user name or password"
    /// or 135 "not authorised" (`MQTT_RC_BAD_USERNAME_OR_PASSWORD`, `MQTT_RC_NOT_AUTHORIZED`). Final: retrying
    /// with the same credentials gets the same answer, so the client stops.
    case notAuthorised(broker: String, reason: String)
    /// The broker refused the connection for another reason (its MQTT 5 reason code and text). Final.
    case refused(broker: String, code: Int32, reason: String)
    /// The broker ended the session with an MQTT 5 DISCONNECT (its reason code and text).
    case disconnectedByBroker(broker: String, code: Int32, reason: String)
    /// Another client connected with this client's identifier, and the broker handed it the session
    /// (`MQTT_RC_SESSION_TAKEN_OVER`). Final: reconnecting would only take it back and start a tug of war.
    /// Mosquitto sends this from 2.0.18 on; 2.0.11 only closes the older connection, which looks like a network loss,
    /// so identifiers must be unique per broker in the first place.
    case sessionTakenOver(broker: String, clientID: String)
    /// The broker refused a subscription (an access rule, or a filter it does not accept). Final.
    case subscriptionRefused(broker: String, topics: [String])
    /// The connection ended: the library's text for why (`mosquitto_strerror`, plus `strerror` for an errno).
    case connectionLost(broker: String, reason: String)
    /// The first connection has not been made: refused at once (nothing listens, no such host), or no answer came
    /// within the client's wait. The client goes on trying.
    case unreachable(broker: String, reason: String)
    /// A libmosquitto call failed: the call, its `MOSQ_ERR_*` code and the library's text.
    case call(String, code: Int32, message: String)
    /// The broker address is not `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`.
    case badBrokerAddress(String, reason: String)
    /// The TLS connection could not be set up: the library's own error line (OpenSSL's, e.g. "certificate verify
    /// failed") when it logged one. Final: the same files fail the same way.
    case tlsHandshake(broker: String, reason: String)
    /// The TLS files could not be used (missing, unreadable, or not what they claim to be).
    case tlsFiles(String, message: String)
    /// The password file could not be read, or holds no password.
    case passwordFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .notAuthorised(let broker, let reason):
            return "the broker at \(broker) refused the connection: \(reason); check group.username and "
                + "group.password_file against the broker's password_file (and that allow_anonymous is what you expect)"
        case .refused(let broker, let code, let reason):
            return "the broker at \(broker) refused the connection: \(reason) (MQTT reason \(code)); "
                + "see the broker's log for why"
        case .disconnectedByBroker(let broker, let code, let reason):
            return "the broker at \(broker) closed the connection: \(reason) (MQTT reason \(code)); reconnecting"
        case .sessionTakenOver(let broker, let clientID):
            return "another client connected to \(broker) as \(clientID) and took this connection over; "
                + "give every member its own group.host"
        case .subscriptionRefused(let broker, let topics):
            return "the broker at \(broker) refused the subscription to \(topics.joined(separator: ", ")); "
                + "check its access rules (acl_file) for this user"
        case .connectionLost(let broker, let reason):
            return "the connection to the broker at \(broker) was lost: \(reason); reconnecting"
        case .unreachable(let broker, let reason):
            return "the broker at \(broker) cannot be reached: \(reason); still trying"
        case .call(let call, let code, let message):
            return "\(call) failed: \(message) (MOSQ_ERR \(code))"
        case .badBrokerAddress(let address, let reason):
            return "\(address) is not a broker address: \(reason); write mqtt://HOST:PORT (or mqtts://HOST:PORT for TLS)"
        case .tlsHandshake(let broker, let reason):
            return "the TLS connection to the broker at \(broker) failed: \(reason); check group.cafile (the authority "
                + "that signed the broker's certificate) and that the certificate names the host of the broker address"
        case .tlsFiles(let files, let message):
            return "cannot use the TLS files (\(files)): \(message); check that they exist, are readable, and are PEM"
        case .passwordFile(let path, let reason):
            return "cannot read the broker password from \(path): \(reason); put the password on its first line"
        }
    }

    /// The library's text for a `MOSQ_ERR_*` code; for `MOSQ_ERR_ERRNO`, the C library's text for `errno` (read at
    /// once, before another call can change it). The corresponding C function is `mosquitto_strerror`.
    static func libraryText(_ code: Int32) -> String {
        if code == Int32(MOSQ_ERR_ERRNO.rawValue) {
            let number = errno
            return String(cString: strerror(number))
        }
        return String(cString: mosquitto_strerror(code))
    }

    /// The text of an MQTT 5 reason code. The corresponding C function is `mosquitto_reason_string`.
    static func reasonText(_ code: Int32) -> String {
        String(cString: mosquitto_reason_string(code))
    }

    /// A failed call as an error, or nothing when `code` is `MOSQ_ERR_SUCCESS`.
    static func check(_ code: Int32, _ call: @autoclosure () -> String) throws(MQTTError) {
        guard code != Int32(MOSQ_ERR_SUCCESS.rawValue) else { return }
        throw .call(call(), code: code, message: libraryText(code))
    }

    /// What a CONNACK's reason code means for this client: credentials refused (typed, so a caller can tell it
    /// apart), or another refusal. `code` is an MQTT 5 reason code (the client speaks MQTT 5 only).
    static func connectionRefusal(broker: String, code: Int32) -> MQTTError {
        let badCredentials = Int32(MQTT_RC_BAD_USERNAME_OR_PASSWORD.rawValue)
        let notAuthorised = Int32(MQTT_RC_NOT_AUTHORIZED.rawValue)
        if code == badCredentials || code == notAuthorised {
            return .notAuthorised(broker: broker, reason: reasonText(code))
        }
        return .refused(broker: broker, code: code, reason: reasonText(code))
    }
}
