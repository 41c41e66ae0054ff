import Foundation
import XCTest
@testable import PauseCamCore

/// `focus at X Y` on the lens the program shows: a camera with a region of interest gets exactly the rectangle
/// `TapRegion` maps the tap to (through the lens's turn, mirror and digital zoom), a camera without one gets
/// one-shot autofocus, and a lens with neither says so; each outcome is the reply and a typed event.
final class RigControllerFocusTests: XCTestCase {
    static let cameraFormat = CameraFormat(width: 1920, height: 1080, rate: FrameRate(30), pixelFormat: .yuv420p)

    /// A camera with a region of interest (UVC 1.5): remembers every region it is given.
    final class RegionCamera: Camera, @unchecked Sendable {
        let displayName = "Region cam"
        let format = RigControllerFocusTests.cameraFormat
        var regions: [PixelRect] = []
        func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) {}
        func stop() {}
        func setRegionOfInterest(_ region: PixelRect) throws -> RegionOfInterestOutcome {
            regions.append(region)
            return .set
        }
    }

    /// A camera with focus controls but no region of interest: remembers the focus settings it is given.
    final class AutofocusCamera: Camera, CameraControlling, @unchecked Sendable {
        let displayName = "Autofocus cam"
        let format = RigControllerFocusTests.cameraFormat
        var focusSettings: [Command.FocusChoice] = []
        func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) {}
        func stop() {}
        func setExposure(_ setting: Rig.ExposurePreset.Setting) throws -> [String] { [] }
        func setFocus(_ setting: Command.FocusChoice) throws -> [String] {
            focusSettings.append(setting)
            return []
        }
    }

    /// A camera without any control (what a virtual or movie-file lens is).
    final class PlainCamera: Camera, @unchecked Sendable {
        let displayName = "Plain cam"
        let format = RigControllerFocusTests.cameraFormat
        func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) {}
        func stop() {}
    }

    /// A controller whose program shows `lens` (served by `camera`, turned a quarter right and mirrored), with
    /// every event it tells kept in `events`.
    func makeController(camera: any Camera) -> (ScriptRunner, () -> [EngineEvent]) {
        let turned = PictureOrientation(rotation: .quarter, mirrored: true)
        let rig = Rig(name: "Focus rig", output: Rig.OutputSettings(width: 64, height: 36, rate: FrameRate(30)),
                      audio: Rig.AudioInput(device: .none),
                      lenses: [Rig.Lens(name: "main", source: .virtual(color: RGBColor(hex: "#20c040")!), width: 1920,
                                        height: 1080, rate: FrameRate(30), orientation: turned)])
        let serialContext = SimulatedSerialContext()
        final class Events: @unchecked Sendable { var all: [EngineEvent] = [] }
        let events = Events()
        let controller = EngineFixture.makeController(rig: rig, cameras: ["main": camera], microphone: nil,
                                       sinkFactory: RecordingSinkFactory(), store: MemorySidecarStore(),
                                       serialContext: serialContext, wallClock: { Date(timeIntervalSince1970: 0) },
                                       outputDirectory: "/v", finishing: InlineWorker(), devices: InlineWorker(),
                                       notify: { events.all.append($0) })
        controller.startDevices()
        return (ScriptRunner(controller: controller, serialContext: serialContext), { events.all })
    }

    func focusEvents(_ events: [EngineEvent]) -> [FocusAtPointEvent] {
        events.compactMap { if case .focusAtPoint(let event) = $0 { return event } else { return nil } }
    }

    func testATurnedZoomedLensWithARegionOfInterestGetsTheTapRegionsRectangle() {
        let camera = RegionCamera()
        let (runner, events) = makeController(camera: camera)
        XCTAssertEqual(runner.perform(.zoom(.factor(1.5))), .ok("zoom 1.5x = main 1x × digital 1.5x"))
        let taps: [(x: Double, y: Double)] = [(0.5, 0.5), (0.1, 0.2), (0.9, 0.75), (0, 1)]
        var expected: [PixelRect] = []
        for tap in taps {
            let region = TapRegion.sensorRect(x: tap.x, y: tap.y, sensorWidth: 1920, sensorHeight: 1080,
                                              orientation: PictureOrientation(rotation: .quarter, mirrored: true),
                                              digitalZoom: 1.5)
            expected.append(region)
            XCTAssertEqual(runner.perform(.focus(.point(x: tap.x, y: tap.y))),
                           .ok("region of interest set to \(region.width)x\(region.height) at \(region.x),\(region.y) "
                               + "of 1920x1080 on lens main"), "\(tap)")
        }
        XCTAssertEqual(camera.regions, expected)
        // Worked by hand for the centre: the turned picture is 1080x1920, 1.5x shows 720x1280 of it, a fifth of
        // 720 is 144 pixels square around the sensor's centre.
        XCTAssertEqual(camera.regions.first, PixelRect(x: 888, y: 468, width: 144, height: 144))
        XCTAssertEqual(focusEvents(events()).map(\.result), expected.map {
            .regionOfInterest(region: $0, cameraWidth: 1920, cameraHeight: 1080)
        })
        // The shown bottom-left corner (0, 1) of a picture turned right and then mirrored came from the sensor's
        // top right.
        let corner = camera.regions[3]
        XCTAssertTrue(corner.x > 960 && corner.y < 540, "\(corner)")
    }

    func testACameraWithoutARegionOfInterestFocusesOnce() {
        let camera = AutofocusCamera()
        let (runner, events) = makeController(camera: camera)
        XCTAssertEqual(runner.perform(.focus(.point(x: 0.25, y: 0.5))),
                       .ok("one-shot autofocus on lens main (no region of interest on this camera)"))
        XCTAssertEqual(camera.focusSettings, [.point(x: 0.25, y: 0.5)])
        XCTAssertEqual(focusEvents(events()), [FocusAtPointEvent(lens: "main", x: 0.25, y: 0.5,
                                                                 result: .oneShotAutofocus)])
    }

    func testALensWithNeitherSaysSoAndNotesItForTheNextClip() {
        let (runner, events) = makeController(camera: PlainCamera())
        XCTAssertEqual(runner.perform(.focus(.point(x: 0.5, y: 0.5))),
                       .ok("lens main has no focus control (no region of interest, no autofocus); nothing changed "
                           + "(noted in the next clip's sidecar)"))
        XCTAssertEqual(focusEvents(events()), [FocusAtPointEvent(lens: "main", x: 0.5, y: 0.5,
                                                                 result: .noFocusControl)])
    }

    func testTheEventReadsTheSameAsTheReplyAndCarriesTheRegionForPrograms() {
        let event = EngineEvent.focusAtPoint(FocusAtPointEvent(
            lens: "main", x: 0.5, y: 0.25,
            result: .regionOfInterest(region: PixelRect(x: 10, y: 20, width: 30, height: 40), cameraWidth: 640,
                                      cameraHeight: 480)))
        XCTAssertEqual(event.typeName, "focus_at_point")
        XCTAssertEqual(event.text, "region of interest set to 30x40 at 10,20 of 640x480 on lens main")
        let fields = event.jsonFields
        XCTAssertEqual(fields["result"] as? String, "region_of_interest")
        XCTAssertEqual(fields["lens"] as? String, "main")
        XCTAssertEqual(fields["x"] as? Double, 0.5)
        XCTAssertEqual(fields["y"] as? Double, 0.25)
        XCTAssertEqual(fields["region"] as? [String: Int], ["x": 10, "y": 20, "width": 30, "height": 40])
        XCTAssertEqual(fields["camera_width"] as? Int, 640)
        let none = EngineEvent.focusAtPoint(FocusAtPointEvent(lens: "wide", x: 0, y: 0, result: .noFocusControl))
        XCTAssertEqual(none.jsonFields["result"] as? String, "no_focus_control")
        XCTAssertNil(none.jsonFields["region"])
    }
}
