import XCTest
@testable import PauseCamCore

/// `pausecam doctor`'s verdicts from facts alone: which findings block a recording, which only warn, and the exit
/// status that follows.
final class DoctorExaminationTests: XCTestCase {
    private let member = DoctorFacts.User(name: "ana", uid: 1000, groups: ["ana", "video", "audio"],
                                          configuredGroups: ["ana", "video", "audio"])
    private let outsider = DoctorFacts.User(name: "bob", uid: 1001, groups: ["bob"], configuredGroups: ["bob"])
    private let newMember = DoctorFacts.User(name: "cy", uid: 1002, groups: ["cy"], configuredGroups: ["cy", "video"])

    private func node(_ path: String, open: Bool) -> DoctorFacts.DeviceNode {
        DoctorFacts.DeviceNode(path: path, group: "video", mode: 0o660, accessible: open)
    }

    private func severities(_ section: DoctorSection) -> [DoctorFinding.Severity] { section.findings.map(\.severity) }

    func testANodeThatDoesNotOpenBlocksOnlyWhenTheRigNeedsCamerasAndTheFixFitsTheUser() {
        let table: [(user: DoctorFacts.User, needed: Bool, severity: DoctorFinding.Severity, fix: String)] = [
            (outsider, true, .blocker, "sudo usermod -aG video bob"),
            (outsider, false, .note, "sudo usermod -aG video bob"),
            (newMember, true, .blocker, "log out and in again"),
            (member, true, .blocker, "udev rule"),
        ]
        for row in table {
            let facts = DoctorFacts(user: row.user, videoNodes: [node("/dev/video0", open: false)],
                                    needsCameras: row.needed, needsSound: false)
            let finding = DoctorExamination.permissions(facts).findings[1]
            XCTAssertEqual(finding.severity, row.severity, "\(row.user.name), needed \(row.needed)")
            XCTAssertTrue(finding.what.hasPrefix("cannot open /dev/video0 (660)"), finding.what)
            XCTAssertTrue(finding.fixes.joined().contains(row.fix), "\(row.user.name): \(finding.fixes)")
        }
        let open = DoctorFacts(user: outsider, videoNodes: [node("/dev/video0", open: true)])
        XCTAssertEqual(severities(DoctorExamination.permissions(open)), [.ok, .ok, .note],
                       "a node that opens (an ACL) is fine whatever the groups; no /dev/snd is a note")
    }

    func testALensWithoutACameraOrAnAmbiguousRuleBlocks() {
        let facts = DoctorFacts(user: member, rigName: "Desk", lenses: [
            .init(lens: "wide", outcome: .camera("/dev/video0 (C920, serial A1)")),
            .init(lens: "main", outcome: .notACamera("virtual")),
            .init(lens: "tele", outcome: .noCamera(rule: "serial \"B2\"")),
        ])
        let section = DoctorExamination.lenses(facts)
        XCTAssertEqual(severities(section), [.ok, .ok, .blocker])
        XCTAssertEqual(section.findings[2].what, "lens tele: no camera matches serial \"B2\"")

        var ambiguous = facts
        ambiguous.matchError = "rig \"Desk\": lens \"wide\": match usb \"046d:082d\" fits 2 cameras"
        XCTAssertEqual(severities(DoctorExamination.lenses(ambiguous)), [.blocker])
    }

    func testTheOutputFolderAndItsFreeSpaceAgainstTheSessionsThresholds() {
        let table: [(DoctorFacts.OutputFolderState, free: Int64?, [DoctorFinding.Severity])] = [
            (.writable, 10 << 30, [.ok, .ok]),
            (.willBeCreated(parent: "/home/ana"), 10 << 30, [.ok, .ok]),
            (.writable, 500 << 20, [.ok, .warning]),
            (.writable, 10 << 20, [.ok, .blocker]),
            (.writable, (64 << 20) - 1, [.ok, .blocker]),
            (.writable, 64 << 20, [.ok, .warning]),
            (.isAFile, 10 << 30, [.blocker, .ok]),
            (.underAFile(parent: "/tmp/f"), 10 << 30, [.blocker, .ok]),
            (.notWritable(path: "/mnt/ro", reason: "Read-only file system"), 10 << 30, [.blocker, .ok]),
            (.writable, nil, [.ok, .note]),
        ]
        for (state, free, expected) in table {
            let folder = DoctorFacts.OutputFolder(path: "/v", state: state, availableBytes: free, warnBelow: 1 << 30,
                                                  stopBelow: 64 << 20)
            XCTAssertEqual(severities(DoctorExamination.disk(folder)), expected, "\(state), \(String(describing: free))")
        }
    }

    func testAMissingMicrophoneBlocksOnlyWhenRequired() {
        for (required, severity) in [(true, DoctorFinding.Severity.blocker), (false, .warning)] {
            let facts = DoctorFacts(user: member, rigName: "Desk", microphones: .read([]),
                                    rigMicrophone: .unusable(described: "\"default\"", reason: "No such file"),
                                    microphoneRequired: required)
            XCTAssertEqual(severities(DoctorExamination.microphones(facts)), [.note, severity])
        }
        let opens = DoctorFacts(user: member, rigName: "Desk", microphones: .read(["card 1 \"C920\""]),
                                rigMicrophone: .opens(pcm: "plughw:1,0", card: "card 1 \"C920\""),
                                microphoneRequired: true)
        XCTAssertEqual(severities(DoctorExamination.microphones(opens)), [.ok, .ok])
    }

    func testEveryCardOfARigOfVoicesIsExaminedAndNoneIsCalledVideoOnly() {
        var facts = DoctorFacts(user: member, rigName: "Interview", microphones: .read(["card 1 \"Scarlett\""]),
                                rigMicrophone: DoctorFacts.RigMicrophone.none, microphoneRequired: false)
        facts.voiceCards = [DoctorFacts.VoiceCard(voices: "host, guest", microphone: .opens(pcm: "plughw:1,0", card: nil)),
                            DoctorFacts.VoiceCard(voices: "room", microphone: .unusable(described: "\"hw:5\"", reason: "gone"))]
        let section = DoctorExamination.microphones(facts)
        XCTAssertEqual(severities(section), [.ok, .ok, .warning])
        let texts = section.findings.map(\.what)
        XCTAssertTrue(texts[1].hasPrefix("voice host, guest: "), texts[1])
        XCTAssertTrue(texts[2].hasPrefix("voice room: "), texts[2])
        XCTAssertFalse(texts.contains { $0.contains("records no sound") }, "\(texts)")
    }

    func testABusThatCannotCarryItsCamerasBlocksAndOneThatMayNotWarns() {
        let bus = USBBus(number: 1, speed: .high, controller: "0000:00:14.0")
        func load(_ lens: String, _ encoding: USBStreamMode.Encoding) -> USBCameraLoad {
            USBCameraLoad(lens: lens, placement: USBPlacement(bus: 1, port: "1.\(lens.count)", speed: .high),
                          mode: USBStreamMode(encoding: encoding, width: 1280, height: 720, rate: FrameRate(30)))
        }
        let table: [([USBCameraLoad], DoctorFinding.Severity)] = [
            ([load("a", .mjpeg)], .ok),
            ([load("a", .mjpeg), load("bb", .mjpeg)], .warning),
            ([load("a", .yuyv), load("bb", .yuyv), load("ccc", .yuyv)], .blocker),
        ]
        for (loads, severity) in table {
            let plan = USBBandwidthPlanner.plan(loads, buses: [bus], standby: .hot)
            let section = DoctorExamination.usb(plan, unplanned: [])
            XCTAssertEqual(section.findings.first?.severity, severity, section.findings.first?.what ?? "")
            if severity != .ok { XCTAssertFalse(section.findings[0].fixes.isEmpty, "the planner's fixes are kept") }
        }
    }

    func testTheEncoderTooSlowWarnsAndNeverBlocks() {
        let slow = EncoderSpeedMeasurement(width: 1920, height: 1080, rate: FrameRate(30),
                                           samples: [.init(preset: "ultrafast", framesPerSecond: 30)])
        let fast = EncoderSpeedMeasurement(width: 1280, height: 720, rate: FrameRate(30),
                                           samples: [.init(preset: "ultrafast", framesPerSecond: 241),
                                                     .init(preset: "superfast", framesPerSecond: 63),
                                                     .init(preset: "veryfast", framesPerSecond: 51)])
        // The measurement stops at the first preset too slow (faster, 30 fps): medium is slower still.
        let stopped = EncoderSpeedMeasurement(width: 1280, height: 720, rate: FrameRate(30),
                                              samples: fast.samples + [.init(preset: "faster", framesPerSecond: 30)])
        let table: [(DoctorFacts.Encoder, DoctorFinding.Severity)] = [
            (.measured(slow, preset: "auto", cached: true), .warning),
            (.measured(fast, preset: "auto", cached: false), .ok),
            (.measured(stopped, preset: "medium", cached: false), .warning),
            (.measured(stopped, preset: "veryfast", cached: false), .ok),
            (.notMeasured(width: 1280, height: 720, rate: FrameRate(30)), .note),
            (.failed("x264 missing"), .warning),
        ]
        for (encoder, severity) in table {
            XCTAssertEqual(DoctorExamination.encoder(encoder).severity, severity, "\(encoder)")
        }
        XCTAssertTrue(DoctorExamination.encoder(.measured(fast, preset: "auto", cached: false)).findings[0].what
                          .contains("preset auto chooses veryfast keeps up"))
    }

    func testClockSources() {
        let table: [(DoctorFacts.Reading<String>, DoctorFinding.Severity)] = [
            (.read("tsc"), .ok), (.read("kvm-clock"), .ok), (.read("arch_sys_counter"), .ok),
            (.read("hpet"), .warning), (.read("acpi_pm"), .warning), (.read("jiffies"), .warning),
            (.notReadable("no such file"), .note),
        ]
        for (source, severity) in table {
            XCTAssertEqual(DoctorExamination.clock(source).severity, severity, "\(source)")
        }
    }

    func testUSBTroubleInTheKernelLogIsSortedByKind() {
        let table: [(String, USBKernelMessages.Kind?)] = [
            ("[ 12.3] usb 1-1.2: reset high-speed USB device number 5 using xhci_hcd", .reset),
            ("[ 99.0] usb 2-3: reset SuperSpeed USB device number 2 using xhci_hcd", .reset),
            ("[ 40.1] uvcvideo 1-1.2:1.0: Failed to submit URB 0 (-28).", .bandwidth),
            ("[  3.2] usb 1-4: device descriptor read/64, error -71", .enumeration),
            ("[  3.9] usb usb1-port4: Cannot enable. Maybe the USB cable is bad?", .enumeration),
            ("[  5.0] usb 1-4: unable to enumerate USB device", .enumeration),
            ("[  6.0] usb usb1-port2: over-current condition", .overCurrent),
            ("[  7.0] xhci_hcd 0000:00:14.0: xHCI host controller not responding, assume dead", .controller),
            ("[  8.0] usb 1-1.2: new high-speed USB device number 5 using xhci_hcd", nil),
            ("[  9.0] usb 1-1.2: USB disconnect, device number 5", nil),
            ("[ 10.0] EXT4-fs (sda1): re-mounted. Quota mode: none.", nil),
        ]
        for (line, kind) in table { XCTAssertEqual(USBKernelMessages.kind(of: line), kind, line) }

        let findings = USBKernelMessages.findings(in: table.map(\.0))
        XCTAssertEqual(findings.map(\.severity), [.warning, .warning, .warning, .warning, .warning])
        XCTAssertTrue(findings[0].what.hasPrefix("USB devices were reset 2 times; last: \"[ 99.0] usb 2-3:"),
                      findings[0].what)
        XCTAssertEqual(USBKernelMessages.findings(in: table.suffix(3).map(\.0)).map(\.severity), [.ok])
        XCTAssertEqual(DoctorExamination.kernelLog(.notReadable("Operation not permitted")).severity, .note)
    }

    func testTheVerdictListsEachBlockerWithWhyAndFixAndTheExitStatusFollows() {
        var facts = DoctorFacts(user: member, videoNodes: [node("/dev/video0", open: true)], rigName: "Desk",
                                lenses: [.init(lens: "tele", outcome: .noCamera(rule: "serial \"B2\""))],
                                outputFolder: .init(path: "/v", state: .isAFile, availableBytes: 10 << 30,
                                                    warnBelow: 1 << 30, stopBelow: 64 << 20))
        var sections = DoctorExamination.sections(of: facts)
        XCTAssertEqual(sections.map(\.title), ["Permissions", "Cameras", "Rig lenses", "Microphones", "Disk", "Clock",
                                               "Kernel log"])
        XCTAssertEqual(DoctorReport.exitStatus(sections), 1)
        let text = DoctorReport.text(of: sections, subject: "rig \"Desk\"")
        XCTAssertTrue(text.contains("""
            Verdict: rig "Desk" cannot record: 2 blockers
              1. lens tele: no camera matches serial "B2"
                 why: the lens would show the "no camera" slate instead of a picture
                 fix: plug its camera in
            """), text)
        XCTAssertTrue(text.contains("  2. the output folder /v is a file, not a folder\n"), text)

        facts.lenses = [.init(lens: "tele", outcome: .camera("/dev/video0 (C920)"))]
        facts.outputFolder?.state = .writable
        sections = DoctorExamination.sections(of: facts)
        XCTAssertEqual(DoctorReport.exitStatus(sections), 0)
        XCTAssertTrue(DoctorReport.text(of: sections, subject: "rig \"Desk\"").hasSuffix("Verdict: rig \"Desk\" can record.\n"))
    }
}
