import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// The sound card state machine, as a table: what each udev action on a `sound` device reports.
final class SoundCardEventInterpreterTests: XCTestCase {
    func testActionsOnCardsAndTheirDevices() {
        let c920 = MicrophoneIdentity(card: 1, name: "C920", serial: "AAAA1111", usb: "046d:082d",
                                      usbDevicePath: "/sys/devices/usb1/1-1")
        let bareRemove = MicrophoneIdentity(card: 1, name: "card1")
        let yeti = MicrophoneIdentity(card: 1, name: "Yeti", usb: "b58e:9e84")
        typealias Step = (action: String, name: String, identity: MicrophoneIdentity?, expected: [SoundCardEvent])
        let steps: [Step] = [
            ("add", "card1", c920, [.added(c920)]),
            ("add", "controlC1", nil, []),
            ("change", "card1", c920, []),
            ("remove", "controlC1", nil, []),
            ("remove", "card1", bareRemove, [.removed(c920)]),
            ("remove", "card1", bareRemove, [.removed(bareRemove)]),
            ("add", "card1", yeti, [.added(yeti)]),
            ("change", "card1", c920, [.removed(yeti), .added(c920)]),
            ("online", "card1", c920, []),
        ]
        var interpreter = SoundCardEventInterpreter()
        for (index, step) in steps.enumerated() {
            XCTAssertEqual(interpreter.handle(action: step.action, systemName: step.name, identity: step.identity),
                           step.expected, "step \(index): \(step.action) \(step.name)")
        }
    }

    func testLostEventsAreMadeUpByAFreshEnumeration() {
        let pch = MicrophoneIdentity(card: 0, name: "PCH")
        let c920 = MicrophoneIdentity(card: 1, name: "C920", usb: "046d:082d")
        let yeti = MicrophoneIdentity(card: 2, name: "Yeti", usb: "b58e:9e84")
        var interpreter = SoundCardEventInterpreter()
        interpreter.seed([pch, c920])
        XCTAssertEqual(interpreter.resynchronize(with: [pch, yeti]), [.removed(c920), .added(yeti)])
        XCTAssertEqual(interpreter.handle(action: "remove", systemName: "card2", identity: nil), [.removed(yeti)])
    }
}
