import Foundation

/// The broker password, kept in a file of its own (like Mosquitto's clients' `--pw` alternatives and Docker
/// secrets) so it never sits in the rig file, a command line or a sidecar.
public enum MQTTPasswordFile {
    /// The file's first line, without its line end. An empty first line is an error: a broker set up with
    /// credentials refuses an empty password, and the user meant to write one.
    public static func read(path: String) throws(MQTTError) -> String {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .passwordFile(path: path, reason: Self.reason(error))
        }
        let text = String(decoding: data, as: UTF8.self)
        let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let password = firstLine.hasSuffix("\r") ? firstLine.dropLast() : firstLine
        guard !password.isEmpty else { throw .passwordFile(path: path, reason: "its first line is empty") }
        return String(password)
    }

    /// The reason Foundation gives, without its wrapping ("The file … couldn't be opened because …").
    private static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSCocoaErrorDomain && nsError.code == NSFileReadNoSuchFileError {
            return "no such file"
        }
        if nsError.domain == NSCocoaErrorDomain && nsError.code == NSFileReadNoPermissionError {
            return "permission denied"
        }
        return nsError.localizedDescription
    }
}
