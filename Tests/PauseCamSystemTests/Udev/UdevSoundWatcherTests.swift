import Foundation
import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// Sound cards plugged and unplugged under umockdev (scenario "soundhotplug"): the sound watcher reports each
/// card's add and remove with its identity (the removal with the identity it was announced with), ignores the
/// cards' control devices, and a rig's rule picks the re-plugged card.
extension UdevTestbedTests {
    func testSoundCardsPluggedAndUnpluggedReachTheSoundWatcher() throws {
        try runInsideTestbed("soundhotplug", test: "testSoundHotPlug")
    }
}

/// Collects sound watcher events from the watcher's thread.
final class SoundCardEventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [SoundCardEvent] = []
    var all: [SoundCardEvent] { lock.lock(); defer { lock.unlock() }; return events }
    func append(_ event: SoundCardEvent) { lock.lock(); events.append(event); lock.unlock() }
}

extension UdevInsideTestbedTests {
    func testSoundHotPlug() throws {
        try scenario("soundhotplug")
        let watcher = try UdevSoundWatcher()
        XCTAssertEqual(try watcher.enumerate().map(\.card), [0], "the PCI card was there before")
        let log = SoundCardEventLog()
        let sentinelSeen = expectation(description: "sentinel card END added")
        try watcher.start { event in
            log.append(event)
            if case .added(let card) = event, card.card == 9 { sentinelSeen.fulfill() }
        }
        wait(for: [sentinelSeen], timeout: 30)
        watcher.stop()
        watcher.stop()
        let events = Array(log.all.dropLast())
        let c920 = try XCTUnwrap(events.first.flatMap { if case .added(let card) = $0 { return card } else { return nil } })
        XCTAssertEqual(c920.card, 1)
        XCTAssertEqual(c920.usb, "046d:082d")
        XCTAssertEqual(c920.serial, "AAAA1111")
        XCTAssertEqual(c920.usbDevicePath, "/sys/devices/usb1/1-1")
        XCTAssertEqual(events.count, 4, "card1 added, card2 added, card1 removed, card1 added: \(events)")
        guard events.count == 4 else { return }
        guard case .added(let yeti) = events[1] else { return XCTFail("\(events)") }
        XCTAssertEqual(yeti.card, 2)
        XCTAssertEqual(events[2], .removed(c920), "removed with the identity it was added with")
        XCTAssertEqual(events[3], .added(c920), "plugged back: the same identity")
        // What the composition root does with each `added`: the rig's rule picks the C920's card, not the Yeti.
        let rule = Rig.MatchRule.usb("046d:082d")
        XCTAssertEqual(events.compactMap { if case .added(let card) = $0, card.matches(rule) { return card.card } else { return nil } },
                       [1, 1])
        XCTAssertEqual(try UdevSoundCards().microphone(ofCameraNode: "/dev/video0"), c920,
                       "`lens:` finds the re-plugged card through the camera's USB device")
    }
}
