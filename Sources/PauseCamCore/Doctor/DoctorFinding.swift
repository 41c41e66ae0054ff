/// One thing `pausecam doctor` found, with how much it matters: what it is, why it matters, and what to do.
/// Built by `DoctorExamination` from `DoctorFacts`, printed by `DoctorReport`.
public struct DoctorFinding: Sendable, Equatable {
    /// How much a finding matters to the rig's next recording.
    public enum Severity: Int, Sendable, Equatable, Comparable {
        /// Works as it should.
        case ok
        /// Worth knowing; changes nothing.
        case note
        /// The rig records, but worse than it could (dropped frames, no sound, a bus that may not carry it).
        case warning
        /// The rig cannot record as written: `pausecam doctor` exits 1 and lists it.
        case blocker

        public static func < (a: Severity, b: Severity) -> Bool { a.rawValue < b.rawValue }
    }

    /// How much it matters; a `blocker` makes doctor exit 1.
    public var severity: Severity
    /// What was found, in one line ("lens tele: no camera matches serial \"B2\"").
    public var what: String
    /// Why it matters; `nil` for a finding that explains itself.
    public var why: String?
    /// What to do about it, most effective first; empty when nothing needs doing.
    public var fixes: [String]

    public init(_ severity: Severity, _ what: String, why: String? = nil, fixes: [String] = []) {
        self.severity = severity
        self.what = what
        self.why = why
        self.fixes = fixes
    }
}
