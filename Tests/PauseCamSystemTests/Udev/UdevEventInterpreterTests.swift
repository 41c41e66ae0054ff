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

    /// After lost events, a fresh enumeration is compared with what was announced: what vanished is detached,
    /// what appeared is attached, what changed is both, what stayed is silent.
    func testResynchronizingAfterLostEventsReportsTheMissedAddsAndRemoves() {
        let kept = CameraIdentity(devicePath: "/dev/video0", name: "C920", serial: "A1")
        let unplugged = CameraIdentity(devicePath: "/dev/video2", name: "BRIO", serial: "B2")
        let plugged = CameraIdentity(devicePath: "/dev/video4", name: "C922", serial: "C3")
        let swappedOld = CameraIdentity(devicePath: "/dev/video6", name: "C920", serial: "D4")
        let swappedNew = CameraIdentity(devicePath: "/dev/video6", name: "C920", serial: "E5")
        var interpreter = UdevEventInterpreter()
        interpreter.seed([kept, unplugged, swappedOld])
        XCTAssertEqual(interpreter.resynchronize(with: [swappedNew, plugged, kept]),
                       [.detached(unplugged), .detached(swappedOld), .attached(plugged), .attached(swappedNew)])
        XCTAssertEqual(interpreter.resynchronize(with: [swappedNew, plugged, kept]), [], "nothing changed since")
        XCTAssertEqual(interpreter.handle(action: "remove", devicePath: "/dev/video4", identity: nil),
                       [.detached(plugged)], "a camera found by the enumeration is remembered for its removal")
    }
}

