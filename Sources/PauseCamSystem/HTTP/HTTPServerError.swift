/// Why the HTTP server could not start.
public enum HTTPServerError: Error, CustomStringConvertible, Equatable {
    /// libmicrohttpd could not listen on the address: the address and why (the errno, with its C name).
    case cannotListen(address: String, failure: Errno)
    /// The address is not an IP literal the system accepts.
    case badAddress(String)

    public var description: String {
        switch self {
        case .cannotListen(let address, let failure):
            return "cannot listen on \(address): \(failure.message) (\(failure.name)); "
                + "choose another address with --web ADDR:PORT, or turn the monitor off with --no-web"
        case .badAddress(let address):
            return "\(address) is not an IP address this machine can listen on; use --web 127.0.0.1:8360"
        }
    }
}
