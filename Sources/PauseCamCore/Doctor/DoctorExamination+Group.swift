extension DoctorExamination {
    // MARK: Encoder load

    /// The encoder section, with a blocker when the rig's ISOs and live streams cannot be encoded beside the
    /// program at the speed known here: `run` and `shell` refuse such a rig before recording, so `doctor` must not
    /// say it can record.
    public static func encoder(_ encoder: DoctorFacts.Encoder, loadRefusal: String?) -> DoctorSection {
        var section = self.encoder(encoder)
        if let loadRefusal {
            let parts = loadRefusal.components(separatedBy: ". To record: ")
            section.findings.append(DoctorFinding(
                .blocker, parts[0], why: "`run` and `shell` refuse the rig before recording",
                fixes: parts.count > 1 ? parts[1].components(separatedBy: "; ") : []))
        }
        return section
    }

    // MARK: Group

    /// A group member's own blockers, the ones `record` meets after the devices: a rig without `group.host` does not
    /// start; a broker that does not answer leaves this member recording alone (the others never hear its
    /// `record`); and with `require_sync: true` a clock the kernel calls unsynchronised refuses `record`. The same
    /// judgement as the member's (`ClockHealth`), so doctor says "can record" only when `record` can.
    public static func group(_ group: DoctorFacts.Group) -> DoctorSection {
        var findings: [DoctorFinding] = []
        let name = "group \(group.name)"
        if group.host == nil {
            findings.append(DoctorFinding(.blocker, "\(name): this member has no name", why: "the rig does not start",
                                          fixes: ["write group.host: NAME in the rig (each member a name of its own)"]))
        }
        switch group.broker {
        case .answered:
            findings.append(DoctorFinding(.ok, "\(name): the broker at \(group.brokerAddress) answers"))
        case .noAnswer(let reason):
            findings.append(DoctorFinding(
                .blocker, "\(name): the broker at \(group.brokerAddress) does not answer (\(reason))",
                why: "this member's `record` would reach no other member: it would record alone",
                fixes: ["start the broker on its machine (Mosquitto: `sudo systemctl start mosquitto`; Debian "
                        + "package mosquitto) and let this machine reach its port",
                        "or correct group.broker in the rig (and its username, password_file or TLS files)"]))
        }
        guard let clock = group.clock else {
            findings.append(DoctorFinding(.note, "\(name): the kernel's clock status could not be read"))
            return DoctorSection("Group", findings)
        }
        switch ClockHealth.judge(clock, rate: group.rate, requireSync: group.requireSync) {
        case .ok:
            findings.append(DoctorFinding(.ok, "\(name): the system clock is synchronised (estimated error "
                                          + "\(clock.estimatedErrorMicroseconds) µs, within a quarter frame)"))
        case .warn(let message):
            findings.append(DoctorFinding(.warning, "\(name): \(message)"))
        case .unsynchronised:
            let what = "\(name): the system clock is not synchronised (the kernel reports STA_UNSYNC)"
            let service = "start a time service: `sudo apt install chrony` (NTP), or ptp4l with phc2sys (PTP)"
            if group.requireSync {
                findings.append(DoctorFinding(
                    .blocker, what, why: "`record` is refused on it (group: {require_sync: true})",
                    fixes: [service, "or write group: {require_sync: false} to record on it anyway (its scene "
                            + "boundaries may land frames apart from the other members')"]))
            } else {
                findings.append(DoctorFinding(
                    .warning, what, why: "`record` starts (require_sync: false), but its scene boundaries may land "
                        + "frames apart from the other members'", fixes: [service]))
            }
        }
        return DoctorSection("Group", findings)
    }
}
