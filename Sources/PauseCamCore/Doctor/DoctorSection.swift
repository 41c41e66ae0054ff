/// One part of `pausecam doctor`'s answer (permissions, cameras, the USB plan…): a title and its findings, in the
/// order they are printed.
public struct DoctorSection: Sendable, Equatable {
    /// The heading printed above the findings ("Permissions", "USB bandwidth").
    public var title: String
    /// What was found, in print order.
    public var findings: [DoctorFinding]

    public init(_ title: String, _ findings: [DoctorFinding]) {
        self.title = title
        self.findings = findings
    }

    /// The most serious finding's severity (`ok` for an empty section).
    public var severity: DoctorFinding.Severity { findings.map(\.severity).max() ?? .ok }
}
