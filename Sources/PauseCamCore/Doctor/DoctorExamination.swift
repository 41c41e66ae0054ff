import Foundation

/// Judges `DoctorFacts`: one section of findings per question `pausecam doctor` answers, in the order a user
/// works through them (may I open the devices, are the cameras there, does the bus carry them, is there sound,
/// room on the disk, speed in the encoder, a good clock, a quiet kernel log). Pure: the same facts give the same
/// verdict, so every rule is a row in a table test.
public enum DoctorExamination {
    /// Every section, in print order. Sections about a rig are left out when no rig was given.
    public static func sections(of facts: DoctorFacts) -> [DoctorSection] {
        var sections = [permissions(facts), cameras(facts)]
        if facts.rigName != nil { sections.append(lenses(facts)) }
        if let plan = facts.usbPlan { sections.append(usb(plan, unplanned: facts.unplannedLenses)) }
        sections.append(microphones(facts))
        if let folder = facts.outputFolder { sections.append(disk(folder)) }
        if let encoder = facts.encoder { sections.append(self.encoder(encoder)) }
        if let webcam = facts.webcam { sections.append(live(webcam)) }
        sections.append(clock(facts.clockSource))
        sections.append(kernelLog(facts.kernelLog))
        return sections
    }

    /// The findings that stop the rig from recording, in section order.
    public static func blockers(in sections: [DoctorSection]) -> [DoctorFinding] {
        sections.flatMap(\.findings).filter { $0.severity == .blocker }
    }

    // MARK: Permissions

    /// Group membership and whether each camera and sound node opens. A node that does not open is a blocker when
    /// the rig needs that kind of device (every kind without a rig), a note otherwise.
    public static func permissions(_ facts: DoctorFacts) -> DoctorSection {
        let user = facts.user
        var findings: [DoctorFinding] = []
        if user.uid == 0 {
            findings.append(DoctorFinding(.ok, "user \(user.name) (uid 0): every device node opens to root"))
        } else {
            let wanted = ["video", "audio"].map { group in
                "\(group) " + (user.groups.contains(group) ? "yes" : "no")
            }
            findings.append(DoctorFinding(.ok, "user \(user.name) (uid \(user.uid)), groups: "
                                          + wanted.joined(separator: ", ")))
        }
        findings += nodeFindings(facts.videoNodes, kind: "camera", pattern: "/dev/video*", needed: facts.needsCameras,
                                 user: user)
        findings += nodeFindings(facts.soundNodes, kind: "sound", pattern: "/dev/snd/*", needed: facts.needsSound,
                                 user: user)
        return DoctorSection("Permissions", findings)
    }

    private static func nodeFindings(_ nodes: [DoctorFacts.DeviceNode], kind: String, pattern: String, needed: Bool,
                                     user: DoctorFacts.User) -> [DoctorFinding] {
        guard !nodes.isEmpty else {
            return [DoctorFinding(.note, "no \(pattern) nodes: the kernel has no \(kind) device")]
        }
        let closed = nodes.filter { !$0.accessible }
        guard !closed.isEmpty else {
            return [DoctorFinding(.ok, "\(nodes.count) \(kind) node\(nodes.count == 1 ? "" : "s") \(pattern) "
                                  + "open for reading and writing")]
        }
        let severity: DoctorFinding.Severity = needed ? .blocker : .note
        var byGroup: [String: [DoctorFacts.DeviceNode]] = [:]
        for node in closed { byGroup[node.group ?? "", default: []].append(node) }
        return byGroup.keys.sorted().map { group in
            let paths = byGroup[group]!.map { "\($0.path) (\(String($0.mode, radix: 8)))" }.joined(separator: ", ")
            let what = "cannot open \(paths)"
            if group.isEmpty {
                return DoctorFinding(severity, what, why: "the nodes belong to no named group",
                                     fixes: ["check the udev rules that create them (`udevadm info \(byGroup[group]![0].path)`)"])
            }
            if user.groups.contains(group) {
                return DoctorFinding(severity, what + " although you are in group \(group)",
                                     why: "the node's mode does not give its group read and write",
                                     fixes: ["check the udev rule that sets its mode (`udevadm info "
                                             + "\(byGroup[group]![0].path)`); mode 660 is usual"])
            }
            if user.configuredGroups.contains(group) {
                return DoctorFinding(severity, what + ": you were added to group \(group) after this login began",
                                     why: "a new group counts only in sessions started after it was given",
                                     fixes: ["log out and in again (or `newgrp \(group)` in this shell)"])
            }
            return DoctorFinding(severity, what + ": they belong to group \(group), and \(user.name) is not in it",
                                 why: "only members of \(group) may open \(kind) devices",
                                 fixes: ["sudo usermod -aG \(group) \(user.name), then log out and in again "
                                         + "(`id -nG` should list \(group))"])
        }
    }

    // MARK: Cameras

    /// Every camera udev lists, with where it sits on USB and the lens it serves. A camera whose formats cannot
    /// be read is a blocker when it serves a lens; no camera at all is a warning without a rig (one with camera
    /// lenses hears about each lens in "Rig lenses").
    public static func cameras(_ facts: DoctorFacts) -> DoctorSection {
        switch facts.cameras {
        case .notReadable(let reason):
            return DoctorSection("Cameras", [DoctorFinding(facts.needsCameras ? .blocker : .warning,
                                                           "udev cannot list the cameras: \(reason)",
                                                           fixes: ["check that /run/udev exists (systemd-udevd runs)"])])
        case .read(let cameras):
            guard !cameras.isEmpty else {
                let severity: DoctorFinding.Severity = facts.rigName == nil ? .warning : .note
                return DoctorSection("Cameras", [DoctorFinding(
                    facts.needsCameras ? severity : .ok,
                    "no cameras" + (facts.needsCameras ? "" : " (the rig needs none)"),
                    fixes: facts.needsCameras ? ["plug one in; `dmesg | tail` right after shows what the kernel "
                                                 + "saw; `v4l2-ctl --list-devices` (v4l-utils) lists what it made"]
                                              : [])])
            }
            return DoctorSection("Cameras", cameras.map { camera in
                var what = camera.description
                if let placement = camera.placement {
                    what += ": USB bus \(placement.bus) port \(placement.name), \(placement.speed.megabits) Mbit/s"
                    if let version = placement.version { what += ", USB \(version)" }
                    if let controller = camera.controller { what += ", controller \(controller)" }
                } else {
                    what += ": not on USB"
                }
                what += camera.lens.map { ", lens \($0)" } ?? ""
                guard let problem = camera.problem else { return DoctorFinding(.ok, what) }
                return DoctorFinding(camera.lens == nil ? .warning : .blocker, what + "; cannot be opened: \(problem)",
                                     why: "its formats cannot be read, so it cannot stream",
                                     fixes: ["see Permissions above; a camera busy in another program is free "
                                             + "once that program ends (`fuser -v \(camera.description.split(separator: " ").first ?? "")`)"])
            })
        }
    }

    // MARK: Rig lenses

    /// Which camera each of the rig's lenses gets. A camera lens without a camera is a blocker: its part of the
    /// movie would be the "no camera" slate.
    public static func lenses(_ facts: DoctorFacts) -> DoctorSection {
        if let error = facts.matchError {
            return DoctorSection("Rig lenses", [DoctorFinding(.blocker, error,
                                                              why: "a session refuses to start a rig whose rules are ambiguous",
                                                              fixes: ["make each lens's `match:` pick one camera "
                                                                      + "(`pausecam devices` lists serials and paths)"])])
        }
        return DoctorSection("Rig lenses", facts.lenses.map { lens in
            switch lens.outcome {
            case .notACamera(let what):
                return DoctorFinding(.ok, "lens \(lens.lens): \(what)")
            case .camera(let camera):
                return DoctorFinding(.ok, "lens \(lens.lens): \(camera)")
            case .noCamera(let rule):
                return DoctorFinding(.blocker, "lens \(lens.lens): no camera matches \(rule)",
                                     why: "the lens would show the \"no camera\" slate instead of a picture",
                                     fixes: ["plug its camera in, or correct its `match:` (`pausecam devices` lists "
                                             + "each camera's serial, path and usb id)"])
            }
        })
    }

    // MARK: USB

    /// The bandwidth plan per bus: a bus that cannot carry its cameras is a blocker (a camera fails to start
    /// with ENOSPC), one that may not is a warning.
    public static func usb(_ plan: USBBandwidthPlan, unplanned: [USBBandwidthReport.Unplanned]) -> DoctorSection {
        var findings = plan.buses.map { bus -> DoctorFinding in
            let lenses = bus.shares.map { "\($0.load.lens) \($0.load.mode)" }.joined(separator: ", ")
            let share = bus.budget > 0 ? " (\((bus.demand * 100 + bus.budget / 2) / bus.budget) %)" : ""
            let what = "\(bus.bus.description): \(lenses): "
                + "\(USBBandwidthPlanner.megabits(bus.demand)) of \(USBBandwidthPlanner.megabits(bus.budget))\(share)"
            switch bus.verdict {
            case .fits:
                return DoctorFinding(.ok, what + ", fits")
            case .mayNotFit:
                return DoctorFinding(.warning, what + ", may not fit",
                                     why: "it fits only if the MJPEG cameras reserve no more than they send "
                                         + "(\(USBBandwidthPlanner.megabits(bus.worstCaseDemand)) if they reserve the most)",
                                     fixes: bus.fixes)
            case .doesNotFit:
                return DoctorFinding(.blocker, what + ", does not fit",
                                     why: "a camera will fail to start (VIDIOC_STREAMON: No space left on device)",
                                     fixes: bus.fixes)
            }
        }
        findings += plan.buses.flatMap(\.notes).map { DoctorFinding(.note, $0) }
        findings += unplanned.map { DoctorFinding(.note, "lens \($0.lens): not planned: \($0.reason)") }
        return DoctorSection("USB bandwidth", findings)
    }

    // MARK: Microphones

    /// One card of a rig of voices: whether it opens, as the one microphone's finding says it.
    static func voiceCardFinding(_ voices: String, _ microphone: DoctorFacts.RigMicrophone,
                                 required: Bool) -> DoctorFinding {
        switch microphone {
        case .none:
            return DoctorFinding(.ok, "voice \(voices): no microphone")
        case .virtual:
            return DoctorFinding(.ok, "voice \(voices): virtual microphone")
        case .opens(let pcm, let card):
            return DoctorFinding(.ok, "voice \(voices): \"\(pcm)\" opens for capture" + (card.map { " (\($0))" } ?? ""))
        case .unusable(let described, let reason):
            return DoctorFinding(
                required ? .blocker : .warning, "voice \(voices): the microphone \(described) cannot be used: \(reason)",
                why: required ? "the rig says `required: true`, so it will not record without it"
                              : "the session warns and records this voice's track as silence",
                fixes: ["plug it in, or change the voice's `device:` or `match:` (`arecord -l` lists capture devices; "
                        + "`pausecam devices` lists the cards with their USB ids)"])
        }
    }

    /// The sound cards, and whether the rig's microphone opens: a missing one is a blocker with
    /// `audio: {required: true}`, otherwise a warning (the session records video only).
    public static func microphones(_ facts: DoctorFacts) -> DoctorSection {
        var findings: [DoctorFinding] = []
        switch facts.microphones {
        case .notReadable(let reason):
            findings.append(DoctorFinding(.note, "udev cannot list the sound cards: \(reason)"))
        case .read(let cards) where cards.isEmpty:
            findings.append(DoctorFinding(.note, "no sound cards"))
        case .read(let cards):
            findings += cards.map { DoctorFinding(.ok, $0) }
        }
        for card in facts.voiceCards {
            findings.append(voiceCardFinding(card.voices, card.microphone, required: facts.microphoneRequired))
        }
        switch facts.rigMicrophone {
        case nil:
            break
        case .none? where !facts.voiceCards.isEmpty:
            break
        case .none?:
            findings.append(DoctorFinding(.ok, "the rig records no sound (`audio: {device: none}`)"))
        case .virtual?:
            findings.append(DoctorFinding(.ok, "the rig's microphone is virtual (sync beeps)"))
        case .opens(let pcm, let card)?:
            findings.append(DoctorFinding(.ok, "the rig's microphone \"\(pcm)\" opens for capture"
                                          + (card.map { " (\($0))" } ?? "")))
        case .unusable(let described, let reason)?:
            findings.append(DoctorFinding(
                facts.microphoneRequired ? .blocker : .warning,
                "the rig's microphone \(described) cannot be used: \(reason)",
                why: facts.microphoneRequired ? "the rig says `required: true`, so it will not record without it"
                                              : "the session warns and records video only",
                fixes: ["plug it in, or set `audio.device` to one of the cards above (`arecord -l` lists capture "
                        + "devices); `audio: {match: {usb: \"VVVV:PPPP\"}}` finds a card whatever its number"]))
        }
        return DoctorSection("Microphones", findings)
    }

    // MARK: Disk

    /// Whether the output folder can be written and how much room is left there, judged by the thresholds a
    /// session uses: below the stop threshold it would stop at once (a blocker), below the warning one it warns.
    public static func disk(_ folder: DoctorFacts.OutputFolder) -> DoctorSection {
        let advice = "choose a folder you can write with --output (or the rig's output.directory)"
        var findings: [DoctorFinding] = []
        switch folder.state {
        case .writable:
            findings.append(DoctorFinding(.ok, "output folder \(folder.path) can be written"))
        case .willBeCreated(let parent):
            findings.append(DoctorFinding(.ok, "output folder \(folder.path) does not exist yet; a session creates "
                                          + "it in \(parent), which can be written"))
        case .isAFile:
            findings.append(DoctorFinding(.blocker, "the output folder \(folder.path) is a file, not a folder",
                                          why: "nothing can be recorded there", fixes: [advice]))
        case .underAFile(let parent):
            findings.append(DoctorFinding(.blocker, "cannot create the output folder \(folder.path): \(parent) is a "
                                          + "file, not a folder", why: "nothing can be recorded there", fixes: [advice]))
        case .notWritable(let path, let reason):
            findings.append(DoctorFinding(.blocker, "the output folder \(folder.path) cannot be written"
                                          + (path == folder.path ? "" : " (nor created in \(path))") + ": \(reason)",
                                          why: "nothing can be recorded there", fixes: [advice]))
        }
        guard let free = folder.availableBytes else {
            findings.append(DoctorFinding(.note, "the free space there is unknown"))
            return DoctorSection("Disk", findings)
        }
        let freeText = bytes(free) + " free"
        if free < folder.stopBelow {
            findings.append(DoctorFinding(.blocker, freeText + ", below the \(bytes(folder.stopBelow)) a session "
                                          + "stops at", why: "a recording would stop as soon as it started",
                                          fixes: ["free some space, or record to another disk with --output"]))
        } else if free < folder.warnBelow {
            findings.append(DoctorFinding(.warning, freeText + ", below the \(bytes(folder.warnBelow)) a session "
                                          + "warns at", why: "a long clip may fill the disk; the session stops and "
                                          + "saves it at \(bytes(folder.stopBelow))",
                                          fixes: ["free some space, or record to another disk with --output"]))
        } else {
            findings.append(DoctorFinding(.ok, freeText))
        }
        if let timeLeft = recordingTimeLeft(folder) { findings.append(timeLeft) }
        return DoctorSection("Disk", findings)
    }

    /// "12.3 GiB", "64 MiB", "900 KiB" (powers of 1024, like `df -h` and the session's thresholds).
    static func bytes(_ count: Int64) -> String {
        let value = Double(count)
        if value >= 1024 * 1024 * 1024 { return String(format: "%.1f GiB", value / (1024 * 1024 * 1024)) }
        if value >= 1024 * 1024 { return String(format: "%.0f MiB", value / (1024 * 1024)) }
        return String(format: "%.0f KiB", value / 1024)
    }

    // MARK: Encoder

    /// x264's measured speed at the rig's canvas against the rate it needs. Too slow is a warning (the movie keeps
    /// its rate by repeating pictures, and says how many it dropped), never a blocker.
    public static func encoder(_ encoder: DoctorFacts.Encoder) -> DoctorSection {
        switch encoder {
        case .failed(let reason):
            return DoctorSection("Encoder", [DoctorFinding(.warning, "the encoder speed could not be measured: \(reason)")])
        case .notMeasured(let width, let height, let rate):
            return DoctorSection("Encoder", [DoctorFinding(
                .note, "x264's speed at \(width)x\(height) at \(rate) fps is not measured on this machine yet",
                fixes: ["`pausecam doctor --measure RIG` (or `pausecam check --measure RIG`) measures it in a few "
                        + "seconds and caches it"])])
        case .measured(let measurement, let preset, let cached):
            let chosen = preset == EncoderPresetChoice.auto ? EncoderPresetChoice.choose(measurement) : preset
            let speeds = measurement.samples.map { String(format: "%@ %.0f fps", $0.preset, $0.framesPerSecond) }
            let what = "x264 at \(measurement.width)x\(measurement.height), \(measurement.rate) fps"
                + (cached ? " (cached measurement)" : "") + ": " + speeds.joined(separator: ", ")
                + String(format: "; needs %.0f fps", EncoderPresetChoice.requiredFramesPerSecond(for: measurement.rate))
            let rigPreset = preset == EncoderPresetChoice.auto ? "preset auto chooses \(chosen)" : "preset \(preset)"
            if let warning = EncoderPresetChoice.warning(for: chosen, in: measurement,
                                                          chosenByAuto: preset == EncoderPresetChoice.auto) {
                return DoctorSection("Encoder", [DoctorFinding(.warning, what + "; " + rigPreset,
                                                               why: "frames will be dropped", fixes: [warning])])
            }
            return DoctorSection("Encoder", [DoctorFinding(.ok, what + "; " + rigPreset + " keeps up")])
        }
    }

    // MARK: Live

    /// The rig's webcam: a loopback device that takes the program, or a blocker that says what to run (the rig
    /// refuses to start without the webcam it names).
    public static func live(_ webcam: DoctorFacts.Webcam) -> DoctorSection {
        switch webcam.outcome {
        case .ready(let device, let card):
            return DoctorSection("Live", [DoctorFinding(
                .ok, "webcam \(webcam.target): \(device) (\"\(card)\") is a v4l2loopback device that takes the program")])
        case .unusable(let problem, let fixes):
            return DoctorSection("Live", [DoctorFinding(
                .blocker, "webcam \(webcam.target): \(problem)",
                why: "the rig writes its program there (`live: {webcam: …}`) and does not start without it",
                fixes: fixes)])
        }
    }

    // MARK: Clock

    /// The kernel's clock source: `tsc` (and the hypervisors' and ARM's own counters) are cheap and steady to
    /// read; `hpet` and `acpi_pm` cost a microsecond or more per reading and usually mean the kernel found the TSC
    /// unstable; `jiffies` is coarse.
    public static func clock(_ source: DoctorFacts.Reading<String>) -> DoctorSection {
        switch source {
        case .notReadable(let reason):
            return DoctorSection("Clock", [DoctorFinding(.note, "the clock source is not readable: \(reason)")])
        case .read(let name):
            let steady = ["tsc", "kvm-clock", "xen", "hyperv_clocksource_tsc_page", "arch_sys_counter"]
            if steady.contains(name) {
                return DoctorSection("Clock", [DoctorFinding(.ok, "clock source \(name)")])
            }
            return DoctorSection("Clock", [DoctorFinding(
                .warning, "clock source \(name)",
                why: name == "jiffies" ? "a tick-based clock: timestamps are coarse"
                                       : "reading it is slow (about a microsecond or more per timestamp), usually "
                                         + "because the kernel found the TSC unstable",
                fixes: ["`dmesg | grep -i clocksource` says why the kernel switched; "
                        + "/sys/devices/system/clocksource/clocksource0/available_clocksource lists the others"])])
        }
    }

    // MARK: Kernel log

    /// USB trouble in the kernel log (`USBKernelMessages`), or that the log is not readable and how to read it.
    public static func kernelLog(_ log: DoctorFacts.Reading<[String]>) -> DoctorSection {
        switch log {
        case .notReadable(let reason):
            return DoctorSection("Kernel log", [DoctorFinding(
                .note, "not readable: \(reason)",
                fixes: ["`sudo dmesg | grep -i usb` shows USB resets and errors (the kernel restricts the log to "
                        + "administrators: kernel.dmesg_restrict)"])])
        case .read(let lines):
            return DoctorSection("Kernel log", USBKernelMessages.findings(in: lines))
        }
    }
}
