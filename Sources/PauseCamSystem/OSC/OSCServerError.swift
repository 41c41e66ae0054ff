import PauseCamCore

/// Why the OSC endpoint could not start: a socket call that failed on an address (with errno's words), or an
/// address that is no IP literal.
public enum OSCServerError: Error, Sendable, Equatable, CustomStringConvertible {
    case call(String, address: OSCPeer, failure: Errno)
    case badAddress(OSCPeer)

    public var description: String {
        switch self {
        case .call(let call, let address, let failure):
            let hint = failure == .addressInUse ? "; another program uses that port: choose another in osc.listen" : ""
            return "OSC on \(address): \(call) failed: \(failure.message) (\(failure.name))\(hint)"
        case .badAddress(let address):
            return "OSC on \(address): not an IP address"
        }
    }
}
