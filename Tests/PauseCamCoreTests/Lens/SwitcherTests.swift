import XCTest
@testable import PauseCamCore

/// Which lens's frames reach the recorder: a switch takes effect at a time compared with capture timestamps, the
/// first frame after a change asks for a keyframe, and digital zoom crops the centre on its ramp.
final class SwitcherTests: XCTestCase {
    private func ms(_ value: Int64) -> MediaTime { .milliseconds(value) }

    private func frame(_ lens: String, _ pts: Int64, width: Int = 640, height: Int = 360) -> VideoFrame {
        VideoFrame(pts: ms(pts), width: width, height: height, format: .yuv420p,
                   planes: [Plane(bytes: [], stride: width)], lens: lens)
    }

    /// (lens, pts in ms, passes, asks for a keyframe) after "main from the start, wide from 1000 ms".
    func testASwitchTakesEffectAtItsTimeByCaptureTimestamp() {
        var switcher = Switcher(lens: "main")
        switcher.switchLens(to: "wide", at: ms(1000))
        let table: [(String, Int64, Bool, Bool)] = [
            ("main", 900, true, false),   // before the switch: main passes
            ("wide", 960, false, false),  // wide before its time is not recorded
            ("main", 999, true, false),   // in flight when the command came: still main's
            ("main", 1000, false, false), // at the switch time main is out…
            ("wide", 1000, true, true),   // …and wide's first frame asks for a keyframe
            ("wide", 1033, true, false),
            ("tele", 1066, false, false), // a lens never chosen never passes
        ]
        for (lens, pts, passes, keyframe) in table {
            let routed = switcher.route(frame(lens, pts))
            XCTAssertEqual(routed != nil, passes, "\(lens) at \(pts) ms")
            if let routed { XCTAssertEqual(routed.lensChanged, keyframe, "\(lens) at \(pts) ms") }
        }
        XCTAssertEqual(switcher.activeLens, "wide")
        XCTAssertEqual(switcher.lens(at: ms(500)), "main")
        XCTAssertEqual(switcher.lens(at: ms(1500)), "wide")
    }

    /// Switching back and forth: each lens owns the spans between the switches, whatever order frames arrive in.
    func testSeveralSwitchesKeepEachLensToItsSpans() {
        var switcher = Switcher(lens: "main")
        switcher.switchLens(to: "tele", at: ms(100))
        switcher.switchLens(to: "main", at: ms(200))
        XCTAssertEqual([0, 99, 100, 199, 200, 300].map { switcher.lens(at: ms($0)) },
                       ["main", "main", "tele", "tele", "main", "main"])
    }

    /// Digital zoom: no crop at 1×, a centred even-aligned crop on and after the ramp, linear during it.
    func testDigitalZoomCropsTheCentreAlongItsRamp() throws {
        var switcher = Switcher(lens: "main")
        switcher.zoom(to: 2, ramp: ms(400), at: ms(1000))
        XCTAssertNil(switcher.route(frame("main", 900))?.frame.crop, "before the ramp: the whole frame")
        XCTAssertEqual(switcher.digitalZoom(at: ms(1200)), 1.5, accuracy: 1e-9, "half way up the ramp")
        let middle = try XCTUnwrap(switcher.route(frame("main", 1200))?.frame.crop)
        XCTAssertEqual(middle, ZoomPlan.centreCrop(width: 640, height: 360, factor: 1.5))
        let end = try XCTUnwrap(switcher.route(frame("main", 1400))?.frame.crop)
        XCTAssertEqual(end, PixelRect(x: 160, y: 90, width: 320, height: 180))
        XCTAssertEqual(switcher.targetZoom, 2)
        // Below 1 is no zoom: digital zoom never enlarges the field of view.
        switcher.zoom(to: 0.5, ramp: .zero, at: ms(2000))
        XCTAssertNil(switcher.route(frame("main", 2000))?.frame.crop)
    }

    /// Crops stay even (4:2:0 chroma) and centred for odd factors and sizes.
    func testCentreCropsAreEvenAndCentred() {
        for (width, height, factor) in [(641, 361, 1.3), (1280, 720, 3.0), (320, 180, 1.0001), (10, 6, 100.0)] {
            let crop = ZoomPlan.centreCrop(width: width, height: height, factor: factor)
            XCTAssertEqual(crop.width % 2, 0)
            XCTAssertEqual(crop.height % 2, 0)
            XCTAssertEqual(crop.x % 2, 0)
            XCTAssertEqual(crop.y % 2, 0)
            XCTAssertGreaterThanOrEqual(crop.width, 2)
            XCTAssertLessThanOrEqual(crop.x + crop.width, width)
            XCTAssertLessThanOrEqual(crop.y + crop.height, height)
            XCTAssertLessThanOrEqual(abs((width - crop.width) - 2 * crop.x), 3, "\(width)x\(height) at \(factor)")
        }
    }
}
