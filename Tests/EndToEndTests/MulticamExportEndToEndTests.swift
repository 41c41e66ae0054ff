import Foundation
import PauseCamCore
import PauseCamTestHelpers
import XCTest

/// `pausecam export --multicam` on the clips of real group members (virtual lenses, a real Mosquitto broker on
/// loopback): one FCPXML multicam clip that Apple's FCPXML 1.9 DTD accepts, its angles placed by the members'
/// grid slots, its chapters the group's scenes.
final class MulticamExportEndToEndTests: XCTestCase {
    /// Apple's DTD, kept as reference data (FCPXML/README.md says where it comes from).
    static let dtd = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("FCPXML/FCPXMLv1_9.dtd").path

    /// Validates `file` against the DTD with xmllint (the check Final Cut Pro's importer starts with).
    static func assertValidFCPXML(_ file: String, file testFile: StaticString = #filePath, line: UInt = #line) throws {
        let xmllint = "/usr/bin/xmllint"
        guard FileManager.default.isExecutableFile(atPath: xmllint) else {
            throw XCTSkip("xmllint is not installed (libxml2-utils; scripts/install-deps installs it)")
        }
        let result = try ProcessRunner.run(xmllint, ["--noout", "--dtdvalid", dtd, file])
        XCTAssertEqual(result.status, 0, "\(file): " + result.stderr, file: testFile, line: line)
    }

    private func pausecam(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(BinaryLocator.pausecam.path, arguments)
    }

    /// The end-to-end rig as member `host` of `group` on `broker`; the lead is 1 s so that a loaded machine still
    /// delivers every command before its time.
    private func rig(host: String, group: String = "studio", broker: MosquittoBroker, in folder: URL) throws -> String {
        let base = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
        let rig = folder.appendingPathComponent("\(host).yaml")
        try (base.replacingOccurrences(of: "name: E2E rig", with: "name: mc-\(host)")
             + "group: {name: \(group), broker: \"\(broker.url)\", host: \(host), lead: 1s, require_sync: false}\n")
            .write(to: rig, atomically: true, encoding: .utf8)
        return rig.path
    }

    private func sidecar(_ path: String) throws -> Sidecar {
        try Sidecar.decode(Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The slot of the `record` that started a member's clip, as its sidecar says.
    private func recordSlot(_ sidecar: Sidecar) throws -> Int64 {
        let record = try XCTUnwrap(sidecar.group?.commands.first { $0.command.hasPrefix("record") })
        XCTAssertEqual(record.outcome, "on_time", "\(record)")
        return record.slot
    }

    /// Three shell members record one clip together, driven by `ctl --group`: the export has three angles at
    /// offset 0 (no gap), the first member's video and sound, and the group's two scenes and mark once each.
    func testThreeMembersRecordingTogetherGiveOneMulticamClipTheDTDAccepts() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let folder = try ProcessRunner.temporaryDirectory("multicam")
        let hosts = ["cam-a", "cam-b", "cam-c"]
        let members = try hosts.map { host in
            try RunningCommand(["shell", try rig(host: host, broker: broker, in: folder),
                                "--output", folder.appendingPathComponent(host).path], keepInputOpen: true)
        }
        defer { for member in members { member.closeInput() } }
        for member in members { XCTAssertTrue(member.waitFor("joined group studio"), member.stdout + member.stderr) }
        for (words, needle) in [(["record", "Take"], "recording scene 1"),
                                (["mark", "applause"], "marked \"applause\""),
                                (["chapter", "Second"], "scene 2 \"Second\""), (["stop"], "saved ")] {
            let sent = try ProcessRunner.run(BinaryLocator.pausecam.path, ["ctl", "--group", "studio", "--broker",
                                                                           broker.url, "--timeout", "10"] + words)
            XCTAssertEqual(sent.status, 0, sent.stdoutText + sent.stderr)
            for member in members { XCTAssertTrue(member.waitFor(needle), "\(needle): " + member.stdout) }
        }
        for member in members {
            member.send("quit")
            member.closeInput()
            XCTAssertEqual(member.waitForExit(seconds: 60), 0, member.stdout + member.stderr)
        }
        let sidecars = hosts.map { folder.appendingPathComponent("\($0)/mc-\($0).json").path }
        let slots = try sidecars.map { try recordSlot(try sidecar($0)) }
        XCTAssertEqual(Set(slots).count, 1, "one record, one slot: \(slots)")

        let result = try pausecam(["export", "--multicam"] + sidecars + ["--format", "fcpxml"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let written = folder.appendingPathComponent("cam-a/mc-cam-a.multicam.fcpxml").path
        XCTAssertEqual(result.stdoutText, written + "\n")
        try Self.assertValidFCPXML(written)
        let xml = try String(contentsOfFile: written, encoding: .utf8)
        XCTAssertEqual(xml.components(separatedBy: "<mc-angle ").count - 1, 3, xml)
        XCTAssertFalse(xml.contains("<gap "), "every angle starts at the same slot: \(xml)")
        for host in hosts {
            let movie = folder.appendingPathComponent("\(host)/mc-\(host).mov")
            XCTAssertTrue(xml.contains("src=\"\(movie.absoluteString)\""), xml)
            XCTAssertTrue(xml.contains("<asset-clip ref=\"r\(2 + hosts.firstIndex(of: host)!)\" offset=\"0s\" "
                                       + "name=\"\(host)\""), xml)
        }
        XCTAssertEqual(xml.components(separatedBy: "<mc-clip ").count - 1, 1)
        XCTAssertTrue(xml.contains(#"<mc-source angleID="angle-1" srcEnable="all"/>"#), xml)
        // The group's scenes and mark, once each, where the first member's sidecar has them.
        let first = try ExportTimeline(sidecar: try sidecar(sidecars[0]))
        XCTAssertEqual(first.chapters.map(\.title), ["Take", "Second"])
        for chapter in first.chapters {
            XCTAssertEqual(xml.components(separatedBy: "<chapter-marker start=\""
                                          + FCPXMLDocument.time(chapter.startFrame, rate: first.rate)
                                          + "\" duration=\"1/30s\" value=\"\(chapter.title)\"").count - 1, 1, xml)
        }
        XCTAssertEqual(xml.components(separatedBy: "value=\"applause\"").count - 1, 1, xml)

        // Never over an existing file.
        let again = try pausecam(["export", "--multicam"] + sidecars + ["--format", "fcpxml"])
        XCTAssertEqual(again.stdoutText, folder.appendingPathComponent("cam-a/mc-cam-a-2.multicam.fcpxml").path + "\n",
                       again.stderr)
    }

    /// Members whose clips began on different slots (two `run`s of one group, one after the other) are placed apart
    /// by exactly their slots' difference; clips of another group, or without a group block, are refused with exit
    /// status 2 and nothing written.
    func testAnglesArePlacedByTheirRecordSlotsAndOtherGroupsAreRefused() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let folder = try ProcessRunner.temporaryDirectory("multicam-apart")
        var sidecars: [String] = []
        for (host, group) in [("cam-a", "studio"), ("cam-b", "studio"), ("cam-c", "other")] {
            let output = folder.appendingPathComponent(host)
            let run = try pausecam(["run", try rig(host: host, group: group, broker: broker, in: folder),
                                    "--script", "short", "--output", output.path])
            XCTAssertEqual(run.status, 0, run.stdoutText + run.stderr)
            sidecars.append(output.appendingPathComponent("mc-\(host).json").path)
        }
        // Given later member first: the earlier one is the one at offset 0.
        let result = try pausecam(["export", "--multicam", sidecars[1], sidecars[0], "--format", "fcpxml",
                                   "--output", folder.appendingPathComponent("apart.fcpxml").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let written = folder.appendingPathComponent("apart.fcpxml").path
        try Self.assertValidFCPXML(written)
        let xml = try String(contentsOfFile: written, encoding: .utf8)
        let (a, b) = (try sidecar(sidecars[0]), try sidecar(sidecars[1]))
        let offset = try recordSlot(b) - recordSlot(a)
        XCTAssertGreaterThan(offset, 0, "cam-b ran after cam-a")
        let offsetTime = FCPXMLDocument.time(offset, rate: FrameRate(30))
        XCTAssertTrue(xml.contains("<mc-angle name=\"cam-b\" angleID=\"angle-1\">\n"
                                   + "                    <gap name=\"Gap\" offset=\"0s\" start=\"0s\" "
                                   + "duration=\"\(offsetTime)\"/>\n"
                                   + "                    <asset-clip ref=\"r2\" offset=\"\(offsetTime)\""), xml)
        XCTAssertTrue(xml.contains("<mc-angle name=\"cam-a\" angleID=\"angle-2\">\n"
                                   + "                    <asset-clip ref=\"r3\" offset=\"0s\""), xml)
        // Each run's scene is a chapter where its movie starts on the shared timeline.
        XCTAssertTrue(xml.contains("<chapter-marker start=\"0s\""), xml)
        XCTAssertTrue(xml.contains("<chapter-marker start=\"\(offsetTime)\""), xml)

        // Refused: another group; a sidecar without a group block; another format.
        var solo = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sidecars[0])))
            as? [String: Any] ?? [:]
        solo.removeValue(forKey: "group")
        let soloPath = folder.appendingPathComponent("cam-a/solo.json").path
        try JSONSerialization.data(withJSONObject: solo).write(to: URL(fileURLWithPath: soloPath))
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("cam-a").path)
        let cases: [([String], String)] = [
            ([sidecars[0], sidecars[2], "--format", "fcpxml"], "has group other but \(sidecars[0]) has studio"),
            ([sidecars[0], soloPath, "--format", "fcpxml"], "\(soloPath) has no group block"),
            ([sidecars[0], sidecars[1], "--format", "edl"], "give --format fcpxml"),
        ]
        for (arguments, message) in cases {
            let refused = try pausecam(["export", "--multicam"] + arguments)
            XCTAssertEqual(refused.status, 2, "\(arguments): " + refused.stderr)
            XCTAssertTrue(refused.stderr.contains(message), "\(arguments): " + refused.stderr)
            XCTAssertEqual(refused.stdoutText, "")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("cam-a").path),
                       before, "nothing written")
    }
}
