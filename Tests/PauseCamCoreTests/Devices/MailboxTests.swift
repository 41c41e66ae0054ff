import Foundation
import XCTest
@testable import PauseCamCore

/// The device-to-context hand-off: bounded, ordered, drops counted, one wake-up per drain.
final class MailboxTests: XCTestCase {
    func testItemsComeOutInTheOrderTheyWentIn() {
        let mailbox = Mailbox<Int>(capacity: 10)
        for value in 1...7 { _ = mailbox.post(value) }
        let drained = mailbox.drain()
        XCTAssertEqual(drained.items, Array(1...7))
        XCTAssertEqual(drained.dropped, 0)
        XCTAssertEqual(mailbox.drain().items, [])
    }

    func testOnlyTheFirstPostSinceADrainAsksForAWakeUp() {
        let mailbox = Mailbox<Int>(capacity: 4)
        XCTAssertTrue(mailbox.post(1))
        XCTAssertFalse(mailbox.post(2))
        XCTAssertFalse(mailbox.post(3))
        _ = mailbox.drain()
        XCTAssertTrue(mailbox.post(4))
        XCTAssertFalse(mailbox.post(5))
        // A drain that finds nothing still re-arms the wake-up.
        _ = mailbox.drain()
        _ = mailbox.drain()
        XCTAssertTrue(mailbox.post(6))
    }

    func testAFullMailboxDropsTheOldestAndCountsThem() {
        let mailbox = Mailbox<Int>(capacity: 3)
        for value in 1...10 { _ = mailbox.post(value) }
        XCTAssertEqual(mailbox.waiting, 3)
        let drained = mailbox.drain()
        XCTAssertEqual(drained.items, [8, 9, 10])
        XCTAssertEqual(drained.dropped, 7)
        // Drops are reported once, to the drain that follows them; the total keeps counting.
        _ = mailbox.post(11)
        XCTAssertEqual(mailbox.drain().dropped, 0)
        XCTAssertEqual(mailbox.droppedTotalCount, 7)
    }

    func testWeightsBoundAudioBySampleFrames() {
        // One second of 48 kHz audio in 10 ms chunks of 480 sample frames: 100 chunks fit, the 101st pushes one out.
        let mailbox = Mailbox<[Int16]>(capacity: 48_000, weight: { $0.count })
        for index in 0..<150 { _ = mailbox.post([Int16](repeating: Int16(index), count: 480)) }
        XCTAssertEqual(mailbox.waiting, 48_000)
        let drained = mailbox.drain()
        XCTAssertEqual(drained.items.count, 100)
        XCTAssertEqual(drained.items.first?.first, 50)
        XCTAssertEqual(drained.dropped, 50 * 480)
    }

    func testAnItemHeavierThanTheCapacityStillGoesThroughAlone() {
        let mailbox = Mailbox<[Int16]>(capacity: 100, weight: { $0.count })
        _ = mailbox.post([1, 2])
        _ = mailbox.post([Int16](repeating: 3, count: 500))
        let drained = mailbox.drain()
        XCTAssertEqual(drained.items.map(\.count), [500])
        XCTAssertEqual(drained.dropped, 2)
    }

    /// Four producers and a draining consumer: nothing is lost or invented, every producer's items stay in order,
    /// and what waits never exceeds the bound.
    func testConcurrentProducersKeepTheirOrderAndEveryItemIsDeliveredOrCountedDropped() {
        struct Item: Sendable { var producer: Int; var index: Int }
        let mailbox = Mailbox<Item>(capacity: 8)
        let perProducer = 5_000
        let done = DispatchGroup()
        for producer in 0..<4 {
            DispatchQueue.global().async(group: done) {
                for index in 0..<perProducer { _ = mailbox.post(Item(producer: producer, index: index)) }
            }
        }
        var received: [Item] = []
        var dropped = 0
        var maximum = 0
        while done.wait(timeout: .now()) == .timedOut {
            maximum = max(maximum, mailbox.waiting)
            let drained = mailbox.drain()
            received += drained.items
            dropped += drained.dropped
        }
        let last = mailbox.drain()
        received += last.items
        dropped += last.dropped
        XCTAssertLessThanOrEqual(maximum, 8)
        XCTAssertEqual(received.count + dropped, 4 * perProducer)
        XCTAssertEqual(mailbox.droppedTotalCount, dropped)
        for producer in 0..<4 {
            let indices = received.filter { $0.producer == producer }.map(\.index)
            XCTAssertEqual(indices, indices.sorted(), "producer \(producer) out of order")
            XCTAssertEqual(Set(indices).count, indices.count, "producer \(producer) duplicated")
        }
    }

    /// A camera's mailbox is sized by memory and time: a 1080p lens gets 12 frames (48 MiB of YUYV), a small camera
    /// a whole second of its frames — the VM test's 320x180 vivid at 15 fps lost its first half second with 4,
    /// while x264 opened on the context in the slow guest — and no lens fewer than 4.
    func testACamerasMailboxHoldsWhatFitsInMemoryUpToOneSecond() {
        let output = Rig.OutputSettings(width: 1280, height: 720, rate: FrameRate(30))
        func capacity(_ width: Int?, _ height: Int?, _ rate: FrameRate?) -> Int {
            let lens = Rig.Lens(name: "x", source: .virtual(color: RGBColor(red: 0, green: 0, blue: 0)), width: width,
                                height: height, rate: rate)
            return RigController.videoMailboxCapacity(for: lens, output: output)
        }
        XCTAssertEqual(capacity(1920, 1080, FrameRate(30)), 12, "48 MiB of 1080p YUYV")
        XCTAssertEqual(capacity(320, 180, FrameRate(15)), 15, "one second of a slow small camera")
        XCTAssertEqual(capacity(640, 480, FrameRate(60)), 60, "one second at 60 fps fits in 48 MiB at 480p")
        XCTAssertEqual(capacity(3840, 2160, FrameRate(30)), 4, "never fewer than four")
        XCTAssertEqual(capacity(nil, nil, nil), 27, "a lens without its own size and rate takes the output's (720p: 27 fit)")
        XCTAssertEqual(RigController.videoMailboxCapacity(for: nil, output: output), 27)
    }
}
