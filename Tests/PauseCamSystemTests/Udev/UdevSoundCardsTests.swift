import Foundation
import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// Microphones by udev (umockdev scenario "sound"): cards only (not their control devices), identities from udev
/// and the USB parent, a rule picks one card whatever its number, and `lens:` finds the card on a camera's USB
/// device.
extension UdevTestbedTests {
    func testSoundCardsEnumerateMatchAndAreFoundByTheirCamera() throws {
        try runInsideTestbed("sound", test: "testSoundCards")
    }
}

extension UdevInsideTestbedTests {
    func testSoundCards() throws {
        try scenario("sound")
        let cards = try UdevSoundCards()
        let microphones = try cards.microphones()
        XCTAssertEqual(microphones.map(\.card), [0, 1, 2], "cards only, by number")
        XCTAssertEqual(microphones[0], MicrophoneIdentity(card: 0, name: "PCH", path: "pci-0000:00:1f.3"))
        XCTAssertEqual(microphones[1].usb, "046d:082d")
        XCTAssertEqual(microphones[1].serial, "AAAA1111")
        XCTAssertEqual(microphones[1].name, "C920")
        XCTAssertEqual(microphones[2].usb, "b58e:9e84")
        XCTAssertEqual(microphones[2].serial, "YETI0001", "from the USB device's serial attribute")
        XCTAssertEqual(try cards.microphone(matching: .usb("B58E:9E84")).pcmName, "plughw:2,0")
        XCTAssertEqual(try cards.microphone(matching: .serial("AAAA1111")).card, 1)
        XCTAssertEqual(try cards.microphone(matching: .name("yeti")).card, 2)
        XCTAssertEqual(try cards.microphone(matching: .path("pci-0000:00:14.0-usb-0:5:1.2")).card, 2)
        XCTAssertThrowsError(try cards.microphone(matching: .usb("1234:5678"))) { error in
            XCTAssertTrue("\(error)".contains("no microphone matches usb \"1234:5678\""), "\(error)")
        }
        // The first C920's microphone is card 1; the second C920 has none.
        XCTAssertEqual(try cards.microphone(ofCameraNode: "/dev/video0").card, 1)
        XCTAssertThrowsError(try cards.microphone(ofCameraNode: "/dev/video2")) { error in
            XCTAssertTrue("\(error)".contains("has no microphone"), "\(error)")
        }
    }
}
