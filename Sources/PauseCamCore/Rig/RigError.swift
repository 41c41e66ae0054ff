/// One problem in a rig file, at a position: printed as `FILE:LINE:COLUMN: message`, the form editors jump to.
public struct RigDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is; line 0 means the whole file (it could not be read).
    public var mark: SourceMark
    /// What is wrong and, where it can, what to write instead.
    public var message: String

    public init(_ message: String, at mark: SourceMark) {
        self.message = message
        self.mark = mark
    }

    /// `FILE:LINE:COLUMN: message`; a problem with the whole file (line 0) prints as `FILE: message`.
    public var description: String {
        mark.line > 0 ? "\(mark): \(message)" : "\(mark.file): \(message)"
    }
}

/// Why a rig could not be loaded: every problem found in the file, in file order, so a user fixes them all in one
/// edit instead of one per run. A rig with any error is never used (no device or file is opened).
public struct RigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Every problem of the file, sorted by position.
    public var diagnostics: [RigDiagnostic]

    public init(_ diagnostics: [RigDiagnostic]) {
        self.diagnostics = diagnostics.sorted { $0.mark < $1.mark }
    }

    /// A single problem.
    public init(_ message: String, at mark: SourceMark) {
        self.init([RigDiagnostic(message, at: mark)])
    }

    /// One diagnostic per line.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
