import PauseCamCore
import XCTest

final class CameraMatcherTests: XCTestCase {
    let c920a = CameraIdentity(devicePath: "/dev/video0", name: "HD Pro Webcam C920", driver: "uvcvideo",
                               bus: "usb-0000:00:14.0-1", serial: "AAAA1111", path: "pci-0000:00:14.0-usb-0:1:1.0",
                               usb: "046d:082d")
    let c920b = CameraIdentity(devicePath: "/dev/video2", name: "HD Pro Webcam C920", driver: "uvcvideo",
                               bus: "usb-0000:00:14.0-2", serial: "BBBB2222", path: "pci-0000:00:14.0-usb-0:2:1.0",
                               usb: "046d:082d")
    let brio = CameraIdentity(devicePath: "/dev/video4", name: "Logitech BRIO", driver: "uvcvideo",
                              bus: "usb-0000:00:14.0-3", serial: "CCCC3333", path: "pci-0000:00:14.0-usb-0:3:1.0",
                              usb: "046d:085e")

    func lens(_ name: String, _ rule: Rig.MatchRule) -> Rig.Lens { Rig.Lens(name: name, source: .camera(rule)) }

    func testEachRuleFindsItsCamera() throws {
        let table: [(Rig.MatchRule, CameraIdentity)] = [
            (.serial("BBBB2222"), c920b),
            (.path("pci-0000:00:14.0-usb-0:1:1.0"), c920a),
            (.name("brio"), brio),
            (.usb("046D:085E"), brio),
            (.bus("usb-0000:00:14.0-2"), c920b),
            (.device("/dev/video0"), c920a),
        ]
        for (rule, expected) in table {
            let result = try CameraMatcher.match([c920a, c920b, brio], to: [lens("main", rule)])
            XCTAssertEqual(result.camera(for: "main"), expected, "\(rule)")
            XCTAssertEqual(result.unmatchedCameras.count, 2, "\(rule)")
            XCTAssertEqual(result.unmatchedLenses, [], "\(rule)")
        }
    }

    func testReportsUnmatchedCamerasAndLensesAndSkipsVirtualLenses() throws {
        let lenses = [lens("wide", .serial("AAAA1111")), lens("tele", .serial("ZZZZ")),
                      Rig.Lens(name: "test", source: .virtual(color: RGBColor(red: 1, green: 2, blue: 3)))]
        let result = try CameraMatcher.match([c920a, brio], to: lenses)
        XCTAssertEqual(result.assignments.map(\.lens), ["wide"])
        XCTAssertEqual(result.lens(servedBy: c920a), "wide")
        XCTAssertEqual(result.unmatchedCameras, [brio])
        XCTAssertEqual(result.unmatchedLenses, ["tele"])
    }

    func testTwoCamerasMatchingOneRuleIsAnErrorNamingBoth() {
        XCTAssertThrowsError(try CameraMatcher.match([c920a, c920b, brio], to: [lens("main", .name("C920"))])) {
            guard let failure = $0 as? CameraMatcher.Failure else { return XCTFail("\($0)") }
            XCTAssertEqual(failure, .ambiguousRule(lens: "main", rule: .name("C920"), cameras: [c920a, c920b]))
            let text = failure.description
            XCTAssertTrue(text.contains("/dev/video0") && text.contains("AAAA1111"), text)
            XCTAssertTrue(text.contains("/dev/video2") && text.contains("BBBB2222"), text)
            XCTAssertTrue(text.contains("\"main\""), text)
        }
    }

    func testOneCameraClaimedByTwoLensesIsAnError() {
        let lenses = [lens("wide", .name("brio")), lens("tele", .usb("046d:085e"))]
        XCTAssertThrowsError(try CameraMatcher.match([c920a, brio], to: lenses)) {
            XCTAssertEqual($0 as? CameraMatcher.Failure, .cameraClaimedTwice(camera: brio, lenses: ["wide", "tele"]))
        }
    }

    func testNoCamerasLeavesEveryCameraLensUnmatched() throws {
        let result = try CameraMatcher.match([], to: [lens("wide", .serial("A")), lens("tele", .serial("B"))])
        XCTAssertEqual(result.unmatchedLenses, ["wide", "tele"])
        XCTAssertTrue(result.assignments.isEmpty)
    }

    func testHotPlugLookupByRuleAlone() {
        let lenses = [lens("wide", .serial("AAAA1111")), lens("tele", .serial("BBBB2222"))]
        XCTAssertEqual(CameraMatcher.lens(for: c920b, among: lenses)?.name, "tele")
        XCTAssertNil(CameraMatcher.lens(for: brio, among: lenses))
    }
}
