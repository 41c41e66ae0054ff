import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// What the engine says and keeps must be true: an empty clip is no movie, a zoom names what it really does and
/// stays within the rig's digital limit, and a control a lens lacks is written into the sidecar.
final class RigControllerHonestyTests: XCTestCase {
    /// A rig whose only lens is a 1x `main`.
    func oneLensRig(maxDigitalZoom: Double = 4) -> Rig {
        var rig = EngineFixture.makeRig()
        rig.lenses = rig.lenses.filter { $0.name == "main" }
        rig.maxDigitalZoom = maxDigitalZoom
        return rig
    }

    // MARK: Empty clips

    func testAClipWithoutAVideoFrameLeavesNothingAndSaysSo() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        XCTAssertTrue(fixture.runner.perform(.record(name: "Empty")).ok)
        XCTAssertTrue(fixture.runner.perform(.stop).ok)
        XCTAssertNil(fixture.runner.finishClip())
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        XCTAssertTrue(sink.video.isEmpty)
        XCTAssertTrue(sink.discarded, "the empty movie's files were not removed")
        XCTAssertFalse(sink.finished, "an empty movie was finished")
        XCTAssertEqual(fixture.store.files, [:], "an empty clip left a sidecar")
        let reason = try XCTUnwrap(fixture.controller.clips.outcome.nothingRecorded)
        XCTAssertTrue(reason.contains("nothing was recorded"), reason)
        XCTAssertEqual(EngineEvent.nothingRecorded.text, reason)
        XCTAssertTrue(fixture.events.contains(.nothingRecorded), "\(fixture.events)")
        XCTAssertNil(fixture.controller.clips.outcome.savedClip)
        XCTAssertNil(fixture.controller.clips.outcome.failure)
        XCTAssertEqual(fixture.controller.status.state, .idle)
    }

    func testAPauseBeforeTheFirstFrameWritesNoSidecarYetAndTheNextClipClearsTheReport() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.pause).ok)
        XCTAssertEqual(fixture.store.writes, 0)
        XCTAssertNil(fixture.runner.finishClip())
        XCTAssertNotNil(fixture.controller.clips.outcome.nothingRecorded)
        // A clip with frames is kept as before, and the report of the empty one is gone.
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertNil(fixture.controller.clips.outcome.nothingRecorded)
        XCTAssertTrue(fixture.runner.perform(.wait(.milliseconds(500))).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertTrue(clip.sidecar.complete)
        XCTAssertEqual(clip.sidecar.duration, 0.5, accuracy: 1.0 / 30 + 1e-9)
        XCTAssertNil(fixture.controller.clips.outcome.nothingRecorded)
        XCTAssertEqual(fixture.factory.sinks.map(\.discarded), [true, false])
    }

    // MARK: Zoom

    func testAFactorWiderThanEveryLensUsesTheWidestAndSaysSo() {
        let fixture = EngineFixture.makeFixture(rig: oneLensRig())
        let reply = fixture.runner.perform(.zoom(.factor(0.2)))
        XCTAssertEqual(reply, .ok("no lens as wide as 0.2x; using main (1x)"))
        XCTAssertEqual(fixture.controller.status.digitalZoom, 1)
    }

    func testDigitalZoomBeyondTheRigsLimitIsRefusedNamingTheLimit() {
        let fixture = EngineFixture.makeFixture(rig: oneLensRig())
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        let reply = fixture.runner.perform(.zoom(.factor(9)))
        XCTAssertFalse(reply.ok)
        XCTAssertEqual(reply.message, "zoom 9x is beyond this rig: digital zoom is limited to 4x (max_digital_zoom), "
                       + "so with main (1x) the most is 4x")
        XCTAssertEqual(fixture.controller.status.digitalZoom, 1, "a refused zoom changed the picture")
        XCTAssertTrue(fixture.runner.perform(.zoom(.factor(4))).ok, "the limit itself is allowed")
        // A preset beyond a lower limit is refused too.
        let strict = EngineFixture.makeFixture(rig: oneLensRig(maxDigitalZoom: 1.5))
        let preset = strict.runner.perform(.zoom(.preset("2x")))
        XCTAssertEqual(preset, .failed("zoom preset \"2x\" asks for 2x digital zoom, beyond this rig's limit of "
                                       + "1.5x (max_digital_zoom)"))
    }

    func testTheReplyAndTheStatusShowTheSameFactor() {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        // The reply says the total and its parts, never a part that passes for the whole.
        for (factor, lens, shown, said) in [(1.25, "main", "1.25x", "zoom 1.25x = main 1x × digital 1.25x"),
                                            (6.0, "tele", "2x", "zoom 6x = tele 3x × digital 2x"),
                                            (0.75, "wide", "1.5x", "zoom 0.75x = wide 0.5x × digital 1.5x")] {
            let reply = fixture.runner.perform(.zoom(.factor(factor)))
            XCTAssertEqual(reply, .ok(said))
            let status = fixture.controller.status
            XCTAssertEqual(ZoomFactor.text(status.digitalZoom), shown)
            XCTAssertTrue(fixture.controller.statusLine().contains("lens \(lens) \(shown) ·"),
                          fixture.controller.statusLine())
        }
    }

    /// Lenses that would serve a factor but have no camera are named as the reason, not "no lens as wide".
    func testAFactorWhoseLensesHaveNoCameraSaysSo() {
        var rig = EngineFixture.makeRig()
        for index in rig.lenses.indices where rig.lenses[index].name != "tele" {
            rig.lenses[index].source = .file(path: "/nonexistent.mov", loop: false)
        }
        rig.defaultLens = "tele"
        let fixture = EngineFixture.makeFixture(rig: rig)
        XCTAssertEqual(fixture.runner.perform(.zoom(.factor(1.5))),
                       .ok("zoom 1.5x not met: lenses wide (0.5x) and main (1x) have no camera; using zoom 3x = tele 3x"))
        XCTAssertFalse(fixture.runner.perform(.zoom(.factor(1.5))).message.contains("no lens as wide"))
        // A wider lens with a camera meets the factor: the one passed over is still named.
        var two = EngineFixture.makeRig()
        two.lenses[1].source = .file(path: "/nonexistent.mov", loop: false)
        two.defaultLens = "wide"
        let other = EngineFixture.makeFixture(rig: two)
        XCTAssertEqual(other.runner.perform(.zoom(.factor(1.5))),
                       .ok("zoom 1.5x = wide 0.5x × digital 3x (lens main (1x) has no camera)"))
    }

    // MARK: Controls a lens lacks

    func testAControlTheLensLacksIsAWarningInTheSidecar() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        // Asked before the clip: the clip is recorded without it, so its sidecar says so.
        let early = fixture.runner.perform(.focus(.manual(40)))
        XCTAssertTrue(early.ok)
        XCTAssertTrue(early.message.hasSuffix("has no focus control; nothing changed (noted in the next clip's sidecar)"),
                      early.message)
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        let during = fixture.runner.perform(.exposure(.bias(1)))
        XCTAssertTrue(during.message.hasSuffix("has no exposure control; nothing changed (noted in the clip's sidecar)"),
                      during.message)
        XCTAssertTrue(fixture.runner.perform(.wait(.milliseconds(300))).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertEqual(clip.sidecar.warnings, [
            "focus 40: lens main (Virtual main (#20c040)) has no focus control; nothing changed",
            "exposure +1: lens main (Virtual main (#20c040)) has no exposure control; nothing changed",
        ])
        // The next clip starts clean.
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.milliseconds(300))).ok)
        XCTAssertEqual(try XCTUnwrap(fixture.runner.finishClip()).sidecar.warnings, [])
    }
}

/// A lens with controls that half work: exposure answers with a warning, focus fails.
final class HalfControllableCamera: Camera, CameraControlling, @unchecked Sendable {
    struct Refused: Error, CustomStringConvertible { var description: String { "VIDIOC_S_CTRL: Input/output error" } }
    let inner: VirtualLens
    var displayName: String { "Half " + inner.displayName }
    var format: CameraFormat { inner.format }
    init(_ inner: VirtualLens) { self.inner = inner }
    func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) throws {
        try inner.start(deliver: deliver, onEnd: onEnd)
    }
    func stop() { inner.stop() }
    func setExposure(_ setting: Rig.ExposurePreset.Setting) throws -> [String] { ["no exposure bias control"] }
    func setFocus(_ setting: Command.FocusChoice) throws -> [String] { throw Refused() }
}

final class ControlWarningTests: XCTestCase {
    func testWarningsAndFailuresOfRealControlsReachTheSidecar() throws {
        let rig = EngineFixture.makeRig()
        let serialContext = SimulatedSerialContext()
        var cameras: [String: any Camera] = [:]
        for lens in rig.lenses {
            guard case .virtual(let color) = lens.source else { continue }
            let virtual = VirtualLens(lens: lens.name, color: color, width: 64, height: 36, rate: FrameRate(30),
                                      serialContext: serialContext)
            cameras[lens.name] = lens.name == "main" ? HalfControllableCamera(virtual) : virtual
        }
        let controller = EngineFixture.makeController(rig: rig, cameras: cameras, microphone: nil, sinkFactory: RecordingSinkFactory(),
                                       store: MemorySidecarStore(), serialContext: serialContext,
                                       wallClock: { Date(timeIntervalSince1970: 0) }, outputDirectory: "/v",
                                       finishing: InlineWorker(), devices: InlineWorker(), notify: { _ in })
        controller.startDevices()
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        XCTAssertTrue(runner.perform(.record(name: nil)).ok)
        XCTAssertEqual(runner.perform(.exposure(.bias(0.7))),
                       .ok("exposure set on lens main\nno exposure bias control (noted in the clip's sidecar)"))
        XCTAssertEqual(runner.perform(.focus(.manual(40))),
                       .failed("focus on lens main: VIDIOC_S_CTRL: Input/output error (noted in the clip's sidecar)"))
        XCTAssertTrue(runner.perform(.wait(.milliseconds(300))).ok)
        let clip = try XCTUnwrap(runner.finishClip())
        XCTAssertEqual(clip.sidecar.warnings, ["exposure +0.7: no exposure bias control",
                                               "focus 40: focus on lens main: VIDIOC_S_CTRL: Input/output error"])
    }
}

/// The lens and digital zoom chosen for a factor, as a table.
final class LensForZoomTests: XCTestCase {
    let lenses = EngineFixture.makeRig().lenses  // wide 0.5, main 1, tele 3

    func testTable() {
        let table: [(Double, String, Double, String?)] = [
            (1, "main", 1, nil), (1.5, "main", 1.5, nil), (0.5, "wide", 1, nil), (0.75, "wide", 1.5, nil),
            (3, "tele", 1, nil), (12, "tele", 4, nil), (0.3, "wide", 1, "no lens as wide as 0.3x; using wide (0.5x)"),
        ]
        for (factor, lens, digital, note) in table {
            let chosen = try? LensForZoom.choose(factor: factor, lenses: lenses, maxDigitalZoom: 4).get()
            XCTAssertEqual(chosen, LensForZoom(lens: lens, digital: digital, note: note), "zoom \(factor)")
        }
        XCTAssertThrowsError(try LensForZoom.choose(factor: 12.5, lenses: lenses, maxDigitalZoom: 4).get())
        XCTAssertThrowsError(try LensForZoom.choose(factor: 1, lenses: [], maxDigitalZoom: 4).get())
    }

    func testFactorsPrintTheSameEverywhere() {
        let table: [(Double, String)] = [(1, "1x"), (2, "2x"), (1.5, "1.5x"), (1.25, "1.25x"), (0.2, "0.2x"),
                                         (1.333333, "1.33x"), (2.999, "3x"), (0.05, "0.05x"), (12, "12x")]
        for (factor, text) in table { XCTAssertEqual(ZoomFactor.text(factor), text, "\(factor)") }
    }
}
