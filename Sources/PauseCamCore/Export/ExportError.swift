import Foundation

/// Why an export cannot be made from a sidecar: the message says what is wrong and what to do.
public struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
