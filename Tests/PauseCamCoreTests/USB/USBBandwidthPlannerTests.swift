import XCTest
@testable import PauseCamCore

/// The USB planner on topologies people really build: two cameras on one USB 2.0 hub, cameras on separate
/// controllers, a USB 3 camera held to high speed by a USB 2 port, three uncompressed 720p cameras on one USB 2.0
/// controller (which cannot work).
final class USBBandwidthPlannerTests: XCTestCase {
    private let yuyv720 = USBStreamMode(encoding: .yuyv, width: 1280, height: 720, rate: FrameRate(30))
    private let yuyvVGA = USBStreamMode(encoding: .yuyv, width: 640, height: 480, rate: FrameRate(30))
    private let mjpeg720 = USBStreamMode(encoding: .mjpeg, width: 1280, height: 720, rate: FrameRate(30))

    private func camera(_ lens: String, bus: Int, port: String, speed: USBSpeed = .high, version: String? = "2.00",
                        _ mode: USBStreamMode) -> USBCameraLoad {
        USBCameraLoad(lens: lens, placement: USBPlacement(bus: bus, port: port, speed: speed, version: version),
                      mode: mode)
    }

    /// A laptop's xHCI: bus 1 its USB 2.0 root hub, bus 2 its SuperSpeed root hub; bus 3 a second controller.
    private let laptop = [USBBus(number: 1, speed: .high, controller: "0000:00:14.0"),
                          USBBus(number: 2, speed: .superSpeed, controller: "0000:00:14.0"),
                          USBBus(number: 3, speed: .high, controller: "0000:03:00.0")]

    func testEachStreamsShareIsItsModesBytesOrTheMJPEGEstimateOrItsPayload() {
        let table: [(USBCameraLoad, bits: Int64, estimated: Bool, worst: Int64, exceeds: Bool)] = [
            // 1280 × 720 × 2 bytes × 30 fps × 8 bits: more than one high-speed stream can carry.
            (camera("a", bus: 1, port: "1", yuyv720), 442_368_000, false, 442_368_000, true),
            (camera("a", bus: 1, port: "1", yuyvVGA), 147_456_000, false, 147_456_000, false),
            // 29.97 fps: exact rational arithmetic, rounded up.
            (camera("a", bus: 1, port: "1", USBStreamMode(encoding: .yuyv, width: 640, height: 480,
                                                           rate: FrameRate(30000, 1001))), 147_308_692, false,
             147_308_692, false),
            // MJPEG estimate: 4 bits per pixel; the worst case is the most one high-speed stream reserves.
            (camera("a", bus: 1, port: "1", mjpeg720), 110_592_000, true, 196_608_000, false),
            // 1080p30's estimate (248.8 Mbit/s) is more than a stream can reserve: capped.
            (camera("a", bus: 1, port: "1", USBStreamMode(encoding: .mjpeg, width: 1920, height: 1080,
                                                           rate: FrameRate(30))), 196_608_000, true, 196_608_000,
             false),
            // The camera's dwMaxPayloadTransferSize, 1,024 bytes per microframe: exact, not estimated.
            (camera("a", bus: 1, port: "1", USBStreamMode(encoding: .mjpeg, width: 1920, height: 1080,
                                                           rate: FrameRate(30), payloadBytesPerInterval: 1024)),
             65_536_000, false, 65_536_000, false),
            // At SuperSpeed uncompressed 720p30 is one ordinary stream.
            (camera("a", bus: 2, port: "1", speed: .superSpeed, version: "3.20", yuyv720), 442_368_000, false,
             442_368_000, false),
        ]
        for (load, bits, estimated, worst, exceeds) in table {
            let share = USBBandwidthPlanner.share(of: load)
            XCTAssertEqual(share.bitsPerSecond, bits, "\(load.mode) at \(load.placement.speed)")
            XCTAssertEqual(share.estimated, estimated, "\(load.mode)")
            XCTAssertEqual(share.worstCase, worst, "\(load.mode)")
            XCTAssertEqual(share.exceedsOneStream, exceeds, "\(load.mode)")
        }
    }

    func testTheBudgetsAreTheDocumentedFigures() {
        XCTAssertEqual(USBSpeed.high.periodicBudget, 384_000_000, "80 % of 480 Mbit/s")
        XCTAssertEqual(USBSpeed.full.periodicBudget, 10_800_000, "90 % of 12 Mbit/s")
        XCTAssertEqual(USBSpeed.superSpeed.periodicBudget, 3_264_000_000, "51,000 bytes per 125 µs")
        XCTAssertEqual(USBSpeed.low.periodicBudget, 0)
        XCTAssertEqual(USBSpeed(sysfs: "480\n"), .high)
        XCTAssertEqual(USBSpeed(sysfs: "5000"), .superSpeed)
        XCTAssertNil(USBSpeed(sysfs: "unknown"))
    }

    func testThreeYUYV720p30CamerasOnOneUSB2ControllerDoNotFitAndMJPEGIsTheFix() {
        let loads = [camera("wide", bus: 1, port: "1.1", yuyv720), camera("tele", bus: 1, port: "1.2", yuyv720),
                     camera("side", bus: 1, port: "2", yuyv720)]
        let plan = USBBandwidthPlanner.plan(loads, buses: laptop, standby: .hot)
        XCTAssertEqual(plan.verdict, .doesNotFit)
        XCTAssertEqual(plan.buses.count, 1)
        let bus = plan.buses[0]
        XCTAssertEqual(bus.demand, 3 * 442_368_000)
        XCTAssertEqual(bus.fixes.filter { $0.hasPrefix("`format: mjpeg` on lens ") }.count, 3, "\(bus.fixes)")
        XCTAssertTrue(bus.fixes[0].contains("YUYV 1280x720@30 needs 442.4 Mbit/s; MJPEG about 110.6 Mbit/s"),
                      "\(bus.fixes)")
        XCTAssertFalse(bus.fixes.contains { $0.contains("standby: cold") },
                       "no camera fits alone in YUYV 720p30 at high speed, so cold standby cannot help")
        XCTAssertTrue(bus.fixes.last?.hasPrefix("a smaller `size` or a lower `fps` on lens wide") ?? false)
        // Cold standby does not save it either: one such stream is already too large.
        XCTAssertEqual(USBBandwidthPlanner.plan(loads, buses: laptop, standby: .cold).verdict, .doesNotFit)
        // The same three in MJPEG fit by the estimate but not if each reserved a whole stream.
        let compressed = loads.map { load -> USBCameraLoad in
            var load = load
            load.mode = mjpeg720
            return load
        }
        XCTAssertEqual(USBBandwidthPlanner.plan(compressed, buses: laptop, standby: .hot).verdict, .mayNotFit)
        // With cold standby only two ever stream; even so two whole high-speed streams (393.2 Mbit/s) are more
        // than the budget, so the verdict stays cautious.
        let cold = USBBandwidthPlanner.plan(compressed, buses: laptop, standby: .cold)
        XCTAssertEqual(cold.buses[0].demand, 2 * 110_592_000)
        XCTAssertEqual(cold.buses[0].worstCaseDemand, 2 * 196_608_000)
        XCTAssertEqual(cold.verdict, .mayNotFit)
    }

    func testTwoCamerasOnOneUSB2Hub() {
        let vga = [camera("wide", bus: 1, port: "1.1", yuyvVGA), camera("tele", bus: 1, port: "1.2", yuyvVGA)]
        let fine = USBBandwidthPlanner.plan(vga, buses: laptop, standby: .hot)
        XCTAssertEqual(fine.verdict, .fits)
        XCTAssertEqual(fine.buses[0].demand, 294_912_000)
        XCTAssertEqual(fine.buses[0].fixes, [])

        let hd = [camera("wide", bus: 1, port: "1.1", mjpeg720), camera("tele", bus: 1, port: "1.2", mjpeg720)]
        let risky = USBBandwidthPlanner.plan(hd, buses: laptop, standby: .hot)
        XCTAssertEqual(risky.verdict, .mayNotFit, "221 Mbit/s by the estimate, 393 if both reserve a whole stream")
        XCTAssertTrue(risky.buses[0].fixes.contains {
            $0.hasPrefix("move lens wide to a port on bus 3 (USB 2.0 high speed, controller 0000:03:00.0)")
        }, "\(risky.buses[0].fixes)")
        XCTAssertFalse(risky.buses[0].fixes.contains { $0.contains("bus 2") },
                       "a USB 2.0 camera on the SuperSpeed bus's ports lands on bus 1 again")
    }

    func testThreeCamerasOnSeparateControllersEachFit() {
        let loads = [camera("wide", bus: 1, port: "1", yuyvVGA), camera("tele", bus: 3, port: "1", yuyvVGA),
                     camera("side", bus: 5, port: "2", mjpeg720)]
        let plan = USBBandwidthPlanner.plan(loads, buses: laptop, standby: .hot)
        XCTAssertEqual(plan.verdict, .fits)
        XCTAssertEqual(plan.buses.map(\.bus.number), [1, 3, 5])
        XCTAssertEqual(plan.buses.map(\.shares.count), [1, 1, 1])
        XCTAssertEqual(plan.buses[2].bus, USBBus(number: 5, speed: .high), "a bus not listed gets the camera's speed")
    }

    func testThreeVGACamerasOnOneBusFitWithColdStandbyOrByMovingOne() {
        let loads = [camera("wide", bus: 1, port: "1", yuyvVGA), camera("tele", bus: 1, port: "2", yuyvVGA),
                     camera("side", bus: 1, port: "3", yuyvVGA)]
        let plan = USBBandwidthPlanner.plan(loads, buses: laptop, standby: .hot)
        XCTAssertEqual(plan.verdict, .doesNotFit, "442.4 of 384 Mbit/s")
        let fixes = plan.buses[0].fixes
        XCTAssertTrue(fixes.contains("`standby: cold`: only the active lens streams (two during a switch), at most "
                                     + "294.9 Mbit/s"), "\(fixes)")
        XCTAssertEqual(fixes.filter { $0.hasPrefix("move lens ") }.count, 1, "one move is enough: \(fixes)")
        XCTAssertEqual(USBBandwidthPlanner.plan(loads, buses: laptop, standby: .cold).verdict, .fits)
    }

    func testAUSB3CameraOnAUSB2PortIsToldToChangePorts() {
        let yuyv1080 = USBStreamMode(encoding: .yuyv, width: 1920, height: 1080, rate: FrameRate(30))
        let held = [camera("main", bus: 1, port: "4", speed: .high, version: "3.20", yuyv1080)]
        let plan = USBBandwidthPlanner.plan(held, buses: laptop, standby: .hot)
        XCTAssertEqual(plan.verdict, .doesNotFit, "995 Mbit/s cannot cross a USB 2.0 link")
        XCTAssertTrue(plan.buses[0].shares[0].exceedsOneStream)
        XCTAssertEqual(plan.buses[0].notes, ["lens main: its camera is USB 3.20 but runs at 480 Mbit/s on port 1-4: "
                                             + "a USB 2 port, hub or cable is on its way"])
        XCTAssertTrue(plan.buses[0].fixes.contains {
            $0.hasPrefix("plug lens main's camera (USB 3.20) into a USB 3 port (bus 2 (USB 3 SuperSpeed 5 Gbit/s")
        }, "\(plan.buses[0].fixes)")
        // On the SuperSpeed bus the same camera fits with room to spare.
        let fixed = [camera("main", bus: 2, port: "1", speed: .superSpeed, version: "3.20", yuyv1080)]
        XCTAssertEqual(USBBandwidthPlanner.plan(fixed, buses: laptop, standby: .hot).verdict, .fits)
    }

    func testTheReportNamesEachLensTheTotalTheVerdictAndTheFixes() {
        let loads = [camera("wide", bus: 1, port: "1.1", yuyv720), camera("tele", bus: 1, port: "1.2", yuyv720),
                     camera("side", bus: 1, port: "2", yuyv720)]
        let plan = USBBandwidthPlanner.plan(loads, buses: laptop, standby: .hot)
        let text = USBBandwidthReport.text(of: plan, unplanned: [.init(lens: "spare", reason: "not connected")],
                                           standby: .hot)
        XCTAssertTrue(text.hasPrefix("  USB bandwidth (periodic budget per bus; standby hot: every lens streams at "
                                     + "once):\n    bus 1 (USB 2.0 high speed, controller 0000:00:14.0): budget "
                                     + "384.0 Mbit/s\n"), text)
        XCTAssertTrue(text.contains("      wide: port 1-1.1, 480 Mbit/s, YUYV 1280x720@30, 442.4 Mbit/s (115 %): more "
                                    + "than one stream can carry at 480 Mbit/s (196.6 Mbit/s)\n"), text)
        XCTAssertTrue(text.contains("      total 1327.1 Mbit/s (346 %): does not fit: a camera will fail to start "
                                    + "(VIDIOC_STREAMON: No space left on device)\n"), text)
        XCTAssertTrue(text.contains("      fix: `format: mjpeg` on lens tele"), text)
        XCTAssertTrue(text.hasSuffix("    spare: not planned: not connected\n"), text)
        XCTAssertEqual(USBBandwidthReport.text(of: USBBandwidthPlan(buses: []), unplanned: [], standby: .hot), "")
    }
}
