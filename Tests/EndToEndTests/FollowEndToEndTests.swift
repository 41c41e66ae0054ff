import Foundation
import FoundationXML
import PauseCamCore
import XCTest

/// The lens follows who speaks, through the binary on the simulated clock: two virtual voices talk at scripted
/// times (host 0–4 s, guest 4–11 s, so both 9–11 s, nobody after), `follow` cuts main → tele → wide once each new
/// speaker has lasted the hold, a person's `lens` takes over for the manual hold, the sidecar marks follow's
/// switches as automatic, and the multicam FCPXML of the clip's ISOs is cut there and validates.
final class FollowEndToEndTests: XCTestCase {
    static let yaml = """
        name: Follow rig
        output: {name: "{rig}", size: 160x90, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}, iso: true}
        audio:
          - {name: host, device: virtual, tone: 700, speech: ["0s-4s", "9s-11s"]}
          - {name: guest, device: virtual, tone: 1300, speech: ["4s-11s"]}
        lenses:
          wide: {zoom: 0.5, virtual: {color: "#d03030"}, size: 160x90, fps: 30}
          main: {zoom: 1, virtual: {color: "#20c040"}, size: 160x90, fps: 30}
          tele: {zoom: 3, virtual: {color: "#3050e0"}, size: 160x90, fps: 30}
        default_lens: main
        follow: {host: main, guest: tele, both: wide, hold: 1s, min_shot: 2s, manual_hold: 10s}
        scripts:
          take:
            - record: Talk
            - wait: 13s
            - lens: main
            - wait: 12s
            - stop

        """

    func testTheLensFollowsWhoSpeaksAPersonTakesOverAndTheMulticamIsCutThere() throws {
        let directory = try ProcessRunner.temporaryDirectory("follow")
        let rigPath = directory.appendingPathComponent("follow.yaml")
        try Self.yaml.write(to: rigPath, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["run", rigPath.path, "--script", "take",
                                                                          "--clock", "simulated", "--output", output.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("follow: lens tele (guest speaks)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("follow: lens wide (host and guest speak)"), result.stderr)
        let sidecarPath = output.appendingPathComponent("follow-rig.json").path
        let sidecar = try Sidecar.decode(Data(contentsOf: URL(fileURLWithPath: sidecarPath)))

        // Follow's cuts at the speaker's start plus the hold (within a frame: the sound that decides arrives in
        // 10 ms chunks, and a switch takes the new lens's next frame), the person's lens at 13 s, and follow's
        // return once the manual hold is over: nobody speaks, `nobody` is `both`'s lens, wide, after the hold.
        let switches = sidecar.switches
        XCTAssertEqual(switches.map(\.lens), ["tele", "wide", "main", "wide"])
        XCTAssertEqual(switches.map { $0.auto ?? false }, [true, true, false, true])
        XCTAssertEqual(switches.map { $0.voices ?? [] }, [["guest"], ["host", "guest"], [], []])
        let expected = [5.0, 10.0, 13.0, 24.0]
        for (index, switchEntry) in switches.enumerated() where index < expected.count {
            XCTAssertEqual(switchEntry.effective, expected[index], accuracy: 0.05, "switch \(index) to \(switchEntry.lens)")
        }

        // The multicam FCPXML of the ISOs: an edit at each of those switches, and it validates against the DTD.
        let export = try ProcessRunner.run(BinaryLocator.pausecam.path, ["export", sidecarPath, "--format", "fcpxml"])
        XCTAssertEqual(export.status, 0, export.stderr)
        let fcpxml = output.appendingPathComponent("follow-rig.fcpxml").path
        try MulticamExportEndToEndTests.assertValidFCPXML(fcpxml)
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: fcpxml))
        var angleNames: [String: String] = [:]
        for case let angle as XMLElement in try document.nodes(forXPath: "//multicam/mc-angle") {
            angleNames[angle.attribute(forName: "angleID")?.stringValue ?? ""] = angle.attribute(forName: "name")?.stringValue
        }
        let edits = try document.nodes(forXPath: "//spine/mc-clip").compactMap { $0 as? XMLElement }.map { clip in
            let video = clip.elements(forName: "mc-source").first {
                ["video", "all"].contains($0.attribute(forName: "srcEnable")?.stringValue ?? "")
            }
            return (offset: IsoExportEndToEndTests.frames(clip.attribute(forName: "offset")?.stringValue),
                    lens: angleNames[video?.attribute(forName: "angleID")?.stringValue ?? ""] ?? "?")
        }
        XCTAssertEqual(edits.map(\.lens), ["main", "tele", "wide", "main", "wide"])
        for (edit, switchEntry) in zip(edits.dropFirst(), switches) {
            XCTAssertEqual(edit.offset, Int64((switchEntry.effective * 30).rounded()), "edit to \(edit.lens)")
        }
    }
}
