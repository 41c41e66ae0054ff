/// `pausecam doctor`'s answer in words: each section with its findings (why and fixes under those that need
/// them), then the verdict — the rig can record, or the numbered list of blockers, each with what, why and the
/// fix — and the exit status that goes with it.
public enum DoctorReport {
    /// 0 when nothing blocks a recording, 1 when something does.
    public static func exitStatus(_ sections: [DoctorSection]) -> Int32 {
        DoctorExamination.blockers(in: sections).isEmpty ? 0 : 1
    }

    /// The report. `subject` names what was examined ("rig \"Desk\" (desk.yaml)", "this machine").
    public static func text(of sections: [DoctorSection], subject: String) -> String {
        var out = "pausecam doctor: \(subject)\n"
        for section in sections {
            out += "\n\(section.title)\n"
            for finding in section.findings {
                out += "  \(label(finding.severity)) \(finding.what)\n"
                guard finding.severity >= .warning || !finding.fixes.isEmpty else { continue }
                if let why = finding.why, finding.severity >= .warning { out += "           why: \(why)\n" }
                for fix in finding.fixes { out += "           fix: \(fix)\n" }
            }
        }
        let blockers = DoctorExamination.blockers(in: sections)
        let warnings = sections.flatMap(\.findings).filter { $0.severity == .warning }.count
        let warningText = warnings == 0 ? "" : " (\(warnings) warning\(warnings == 1 ? "" : "s") above)"
        guard !blockers.isEmpty else {
            return out + "\nVerdict: \(subject) can record\(warningText).\n"
        }
        out += "\nVerdict: \(subject) cannot record: \(blockers.count) blocker\(blockers.count == 1 ? "" : "s")"
            + "\(warningText)\n"
        for (index, blocker) in blockers.enumerated() {
            out += "  \(index + 1). \(blocker.what)\n"
            if let why = blocker.why { out += "     why: \(why)\n" }
            for fix in blocker.fixes { out += "     fix: \(fix)\n" }
        }
        return out
    }

    /// A fixed-width label, so the findings line up.
    static func label(_ severity: DoctorFinding.Severity) -> String {
        switch severity {
        case .ok: return "ok      "
        case .note: return "note    "
        case .warning: return "warning "
        case .blocker: return "BLOCKER "
        }
    }
}
