import PauseCamCore
@testable import PauseCamSystem
import XCTest

final class UdevEventInterpreterTests: XCTestCase {
    let camera = CameraIdentity(devicePath: "/dev/video0", name: "C920", driver: "uvcvideo", serial: "A1")
    let renamed = CameraIdentity(devicePath: "/dev/video0", name: "C920 (firmware 2)", driver: "uvcvideo", serial: "A1")
    /// What a removal event alone says: no QUERYCAP answers, only properties.
    let fromProperties = CameraIdentity(devicePath: "/dev/video0", name: "C920", serial: "A1")

    func testTable() {
        typealias Step = (action: String, identity: CameraIdentity?, expected: [DeviceEvent])
        let table: [(String, [Step])] = [
            ("plug, unplug, re-plug: the same identity each time", [
                ("add", camera, [.attached(camera)]),
                ("remove", fromProperties, [.detached(camera)]),
                ("add", camera, [.attached(camera)]),
            ]),
            ("a repeated add and a change that alters nothing are silent", [
                ("add", camera, [.attached(camera)]),
                ("add", camera, []),
                ("change", camera, []),
            ]),
            ("a change of identity is a detach and an attach", [
                ("add", camera, [.attached(camera)]),
                ("change", renamed, [.detached(camera), .attached(renamed)]),
                ("remove", nil, [.detached(renamed)]),
            ]),
            ("a node that is not a capture node never produces events", [
                ("add", nil, []),
                ("change", nil, []),
                ("remove", nil, []),
            ]),
            ("removal of a camera never announced uses the event's properties", [
                ("remove", fromProperties, [.detached(fromProperties)]),
            ]),
            ("a capture node that stops capturing is detached", [
                ("add", camera, [.attached(camera)]),
                ("change", nil, [.detached(camera)]),
            ]),
        ]
        for (name, steps) in table {
            var interpreter = UdevEventInterpreter()
            for (index, step) in steps.enumerated() {
                XCTAssertEqual(interpreter.handle(action: step.action, devicePath: "/dev/video0",
                                                  identity: step.identity), step.expected, "\(name), step \(index)")
            }
        }
    }

    func testSeededCamerasAreDetachedWithTheirEnumeratedIdentity() {
        var interpreter = UdevEventInterpreter()
        interpreter.seed([camera])
        XCTAssertEqual(interpreter.handle(action: "add", devicePath: "/dev/video0", identity: camera), [])
        XCTAssertEqual(interpreter.handle(action: "remove", devicePath: "/dev/video0", identity: fromProperties),
                       [.detached(camera)])
    }
}
