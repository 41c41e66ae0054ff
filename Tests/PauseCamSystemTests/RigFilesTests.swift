import Foundation
import XCTest
import PauseCamCore
@testable import PauseCamSystem

/// The example rigs in `rigs/` are documentation and test fixtures at once: they must all load, and the virtual
/// rig must keep the exact shape the end-to-end tests and the demo rely on.
final class RigFilesTests: XCTestCase {
    static let rigsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("rigs")

    static func rigPaths() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: rigsFolder.path)
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
            .map { rigsFolder.appendingPathComponent($0).path }
    }

    func testEveryRigInRigsFolderLoadsCleanAndSummarises() throws {
        let paths = try Self.rigPaths()
        XCTAssertTrue(paths.contains { $0.hasSuffix("/virtual.yaml") })
        XCTAssertTrue(paths.contains { $0.hasSuffix("/desk.yaml") })
        for path in paths {
            do {
                let rig = try RigLoader.load(path: path)
                let summary = RigSummary.text(of: rig, file: path)
                XCTAssertTrue(summary.hasPrefix("\(path): \"\(rig.name)\" is valid"), summary)
                for script in rig.scripts { XCTAssertTrue(summary.contains("script \(script.name) ")) }
            } catch {
                XCTFail("\(path) does not check clean:\n\(error)")
            }
        }
    }

    func testInterviewRigHasThreeVirtualVoicesAndFollow() throws {
        let rig = try RigLoader.load(path: Self.rigsFolder.appendingPathComponent("interview-virtual.yaml").path)
        XCTAssertEqual(rig.lenses.map(\.name), ["wide", "main", "tele"])
        XCTAssertEqual(rig.audio.device, Rig.AudioInput.Device.none)
        XCTAssertEqual(rig.audio.voices.map(\.name), ["host", "guest", "room"])
        XCTAssertEqual(rig.audio.voices.map(\.source), [.virtual, .virtual, .virtual])
        XCTAssertEqual(Set(rig.audio.voices.map(\.virtual.frequency)).count, 3, "each voice its own tone")
        XCTAssertFalse(rig.audio.voices[0].virtual.speech.isEmpty)
        XCTAssertFalse(rig.audio.voices[1].virtual.speech.isEmpty)
        let follow = try XCTUnwrap(rig.follow)
        XCTAssertEqual(follow.lenses.map(\.voice), ["host", "guest"])
        XCTAssertEqual(follow.both, "wide")
    }

    func testVirtualRigKeepsItsContract() throws {
        let rig = try RigLoader.load(path: Self.rigsFolder.appendingPathComponent("virtual.yaml").path)
        XCTAssertEqual(rig.name, "Virtual rig")
        XCTAssertEqual(rig.lenses.map(\.name), ["wide", "main", "tele"])
        XCTAssertEqual(rig.lenses.map(\.zoom), [0.5, 1, 3])
        XCTAssertEqual(rig.lenses.map(\.source), [.virtual(color: RGBColor(hex: "#d03030")!),
                                                  .virtual(color: RGBColor(hex: "#20c040")!),
                                                  .virtual(color: RGBColor(hex: "#3050e0")!)])
        for lens in rig.lenses {
            XCTAssertEqual(lens.width, 1280)
            XCTAssertEqual(lens.height, 720)
            XCTAssertEqual(lens.rate, FrameRate(30))
        }
        XCTAssertEqual(rig.defaultLens, "main")
        XCTAssertEqual(rig.audio.device, .virtual)
        XCTAssertEqual(rig.output.width, 1280)
        XCTAssertEqual(rig.output.height, 720)
        XCTAssertEqual(rig.output.rate, FrameRate(30))
        XCTAssertEqual(rig.output.preset, "auto")
        XCTAssertEqual(rig.output.crf, 23)
        XCTAssertEqual(rig.output.container, .mov)
        XCTAssertEqual(rig.output.directory, "~/Videos/PauseCam")
        XCTAssertEqual(rig.zoomPresets, [
            Rig.ZoomPreset(name: "0.5x", lens: "wide"), Rig.ZoomPreset(name: "1x", lens: "main"),
            Rig.ZoomPreset(name: "2x", lens: "main", digital: 2, ramp: .milliseconds(400)),
            Rig.ZoomPreset(name: "3x", lens: "tele"),
        ])
        XCTAssertEqual(rig.exposurePresets.map(\.name), ["bright", "night"])
        XCTAssertEqual(rig.exposurePresets[1].setting, .manual(time: MediaTime(value: 1, timescale: 30), gain: 8))
        XCTAssertEqual(rig.scripts.map(\.name), ["demo", "interview", "pauses"])

        let demo = try XCTUnwrap(rig.script(named: "demo"))
        XCTAssertEqual(demo.scriptedTime, .seconds(6))
        XCTAssertTrue(demo.steps.contains(.pause))
        XCTAssertTrue(demo.steps.contains(.zoom(.preset("2x"))))
        XCTAssertTrue(demo.steps.contains { if case .lens = $0 { return true }; return false })
        XCTAssertTrue(demo.steps.contains { if case .mark = $0 { return true }; return false })
        XCTAssertEqual(demo.steps.first, .record(name: "Opening"))
        XCTAssertEqual(demo.steps.last, .stop)

        let interview = try XCTUnwrap(rig.script(named: "interview"))
        XCTAssertEqual(interview.steps, [
            .record(name: "Intro"), .wait(.seconds(5)), .zoom(.preset("2x")), .wait(.milliseconds(2500)), .pause,
            .wait(.seconds(10)), .resume(name: "Answer"), .lens(.named("tele")), .mark("good take"), .wait(.seconds(4)), .stop,
        ])

        let pauses = try XCTUnwrap(rig.script(named: "pauses"))
        XCTAssertGreaterThanOrEqual(pauses.steps.filter { $0 == .pause }.count, 5)
        XCTAssertLessThanOrEqual(pauses.scriptedTime, .seconds(15))
        let lenses = Set(pauses.steps.compactMap { step -> String? in
            if case .lens(.named(let n)) = step { return n }
            return nil
        })
        XCTAssertEqual(lenses, ["wide", "main", "tele"])
    }

    func testDeskRigIsTheReadmeExample() throws {
        let rig = try RigLoader.load(path: Self.rigsFolder.appendingPathComponent("desk.yaml").path)
        XCTAssertEqual(rig.name, "Desk rig")
        XCTAssertEqual(rig.lenses.first?.source, .camera(.serial("2F4A1C")))
        XCTAssertEqual(rig.lenses.last?.source, .camera(.usb("046d:0825")))
        XCTAssertEqual(rig.lenses.first?.controls, Rig.Controls(exposure: .auto, focus: .auto, powerLine: .hz50))
        XCTAssertEqual(rig.lenses.first?.format, .mjpeg)
        XCTAssertEqual(rig.audio, Rig.AudioInput(device: .alsa("default"), required: false))
        XCTAssertEqual(rig.output.width, 1920)
        XCTAssertEqual(rig.output.crf, 20)
        XCTAssertEqual(rig.standby, .hot)
        XCTAssertEqual(rig.onAttach, .switch)
    }

    func testSummaryShowsTheDigitalZoomLimitAndEachScriptsOnError() throws {
        let text = """
        name: Summary
        max_digital_zoom: 2.5
        lenses:
          main: {zoom: 1, virtual: {color: "#20c040"}}
        scripts:
          strict: [record, stop]
          lenient:
            on_error: continue
            steps: [record, stop]
        """
        let rig = try RigLoader.load(text: text, file: "s.yaml")
        XCTAssertEqual(rig.maxDigitalZoom, 2.5)
        XCTAssertEqual(rig.scripts.map(\.onError), [.stop, .continue])
        let lines = RigSummary.text(of: rig, file: "s.yaml").split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("  digital zoom: at most 2.5x (max_digital_zoom)"), lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains("  script strict (00:00:00.00 scripted, 2 steps, on error stop):"),
                      lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains("  script lenient (00:00:00.00 scripted, 2 steps, on error continue):"),
                      lines.joined(separator: "\n"))
    }

    func testMissingFileIsAnErrorWithoutPosition() {
        XCTAssertThrowsError(try RigLoader.load(path: "/nonexistent/rig.yaml")) { error in
            let e = error as! RigError
            XCTAssertEqual(e.diagnostics.count, 1)
            XCTAssertTrue(e.description.hasPrefix("/nonexistent/rig.yaml: cannot read the rig file"), e.description)
        }
    }
}
