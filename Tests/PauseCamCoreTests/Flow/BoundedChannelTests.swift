import Foundation
import XCTest
@testable import PauseCamCore

/// The one bounded hand-off between threads: each policy's answer to a full channel, weights, closing, and a
/// seeded property test with several producers and receivers on real threads.
final class BoundedChannelTests: XCTestCase {
    func testDropOldestKeepsTheNewestAndCountsWhatItDropped() {
        let channel = BoundedChannel<Int>(capacity: 3, policy: .dropOldest)
        XCTAssertEqual(channel.send(1), .accepted(wasEmpty: true))
        XCTAssertEqual(channel.send(2), .accepted(wasEmpty: false))
        for value in 3...10 { XCTAssertTrue(channel.send(value).isAccepted) }
        XCTAssertEqual(channel.depth, 3)
        let drained = channel.drain()
        XCTAssertEqual(drained.items, [8, 9, 10])
        XCTAssertEqual(drained.dropped, 7)
        XCTAssertEqual(channel.drain().dropped, 0, "drops are reported once, to the drain that follows them")
        XCTAssertEqual(channel.droppedTotal, 7)
        XCTAssertEqual(channel.deepest, 3)
    }

    func testRefuseTurnsTheNewItemAwayAndCountsIt() {
        let channel = BoundedChannel<Int>(capacity: 2, policy: .refuse)
        XCTAssertTrue(channel.send(1).isAccepted)
        XCTAssertTrue(channel.send(2).isAccepted)
        XCTAssertEqual(channel.send(3), .refused)
        XCTAssertEqual(channel.droppedTotal, 1)
        XCTAssertEqual(channel.receive(), 1)
        XCTAssertTrue(channel.send(4).isAccepted, "room again once the receiver took one")
        XCTAssertEqual(channel.drain().items, [2, 4], "order kept; the refused item never arrives")
    }

    func testBlockMakesTheSenderWaitForRoomAndCloseReleasesIt() {
        let channel = BoundedChannel<Int>(capacity: 1, policy: .block)
        XCTAssertTrue(channel.send(1).isAccepted)
        let sent = DispatchSemaphore(value: 0)
        let second = Thread {
            XCTAssertTrue(channel.send(2).isAccepted)
            sent.signal()
        }
        second.start()
        XCTAssertEqual(sent.wait(timeout: .now() + 0.3), .timedOut, "a full channel holds the sender")
        XCTAssertEqual(channel.receive(), 1)
        XCTAssertEqual(sent.wait(timeout: .now() + 60), .success, "room came when the receiver took one")
        XCTAssertEqual(channel.droppedTotal, 0, "back-pressure loses nothing")

        let third = DispatchSemaphore(value: 0)
        Thread {
            XCTAssertEqual(channel.send(3), .closed, "a sender waiting on a closed channel is let go")
            third.signal()
        }.start()
        XCTAssertEqual(third.wait(timeout: .now() + 0.3), .timedOut)
        channel.close()
        XCTAssertEqual(third.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(channel.receive(), 2, "what waited is still received after close")
        XCTAssertNil(channel.receive(), "closed and empty")
        XCTAssertEqual(channel.send(4), .closed)
    }

    func testAReceiverWaitsForAnItemAndCloseEndsTheWait() {
        let channel = BoundedChannel<Int>(capacity: 4, policy: .block)
        let got = DispatchSemaphore(value: 0)
        let results = Guarded<[Int?]>([])
        Thread {
            let first = channel.receive()
            let second = channel.receive()
            results.withLock { $0 = [first, second] }
            got.signal()
        }.start()
        channel.send(7)
        channel.discardAndClose()
        XCTAssertEqual(got.wait(timeout: .now() + 60), .success)
        let received = results.withLock { $0 }
        XCTAssertEqual(received.count, 2)
        XCTAssertNil(received.last ?? 0, "a receiver waiting on a closed channel gets nil")
    }

    func testWeightsBoundUnitsAndAWeightlessItemAlwaysFits() {
        let channel = BoundedChannel<[Int16]>(capacity: 100, policy: .refuse, weight: { $0.count })
        XCTAssertTrue(channel.send([Int16](repeating: 1, count: 60)).isAccepted)
        XCTAssertEqual(channel.send([Int16](repeating: 2, count: 60)), .refused)
        XCTAssertEqual(channel.droppedTotal, 60, "counted in the items' unit")
        XCTAssertTrue(channel.send([]).isAccepted, "a marker without weight is never refused")
        XCTAssertEqual(channel.count, 2)
        _ = channel.drain()
        XCTAssertTrue(channel.send([Int16](repeating: 3, count: 500)).isAccepted,
                      "an item heavier than the capacity goes through alone")
        XCTAssertEqual(channel.send([9]), .refused)
    }

    func testLoweringTheCapacityKeepsWhatWaitsAndHoldsNewItemsUntilTheDepthFalls() {
        let channel = BoundedChannel<Int>(capacity: 4, policy: .refuse)
        for value in 1...4 { XCTAssertTrue(channel.send(value).isAccepted) }
        channel.setCapacity(2)
        XCTAssertEqual(channel.depth, 4, "nothing dropped by the change")
        XCTAssertEqual(channel.send(5), .refused)
        XCTAssertEqual(channel.receive(), 1)
        XCTAssertEqual(channel.receive(), 2)
        XCTAssertEqual(channel.receive(), 3)
        XCTAssertTrue(channel.send(6).isAccepted, "under the new capacity again")
        XCTAssertEqual(channel.send(7), .refused)
    }

    /// Seeded schedules of 1–4 producers and 1–3 receivers on real threads, for each policy: every item sent is
    /// received exactly once or counted as dropped, each receiver sees each producer's items in order, and no more
    /// than the capacity ever waits. A failure names its seed, which replays the same parameters.
    func testEveryItemIsReceivedOnceOrCountedAndOrderAndBoundHoldUnderThreads() {
        struct Item: Sendable, Hashable { var producer: Int; var index: Int }
        for (policyIndex, policy) in [BoundedChannelPolicy.dropOldest, .block, .refuse].enumerated() {
            for seed in UInt64(1)...12 {
                var random = SplitMix64(seed: seed &* 0x9E37 &+ UInt64(policyIndex))
                let capacity = Int(random.next() % 8) + 1
                let producers = Int(random.next() % 4) + 1
                let receivers = Int(random.next() % 3) + 1
                let perProducer = Int(random.next() % 3_000) + 500
                let jitterSeeds = (0..<(producers + receivers)).map { _ in random.next() }
                let channel = BoundedChannel<Item>(capacity: capacity, policy: policy)
                let refused = Guarded(0)
                let received = Guarded<[[Item]]>(Array(repeating: [], count: receivers))
                let overBound = Guarded(0)
                let sent = DispatchGroup(), taken = DispatchGroup()
                for producer in 0..<producers {
                    sent.enter()
                    Thread {
                        var jitter = SplitMix64(seed: jitterSeeds[producer])
                        var mine = 0
                        for index in 0..<perProducer {
                            if jitter.next() % 16 == 0 { sched_yield() }
                            switch channel.send(Item(producer: producer, index: index)) {
                            case .accepted: break
                            case .refused: mine += 1
                            case .closed: XCTFail("seed \(seed): closed while sending")
                            }
                        }
                        refused.withLock { $0 += mine }
                        sent.leave()
                    }.start()
                }
                for receiver in 0..<receivers {
                    taken.enter()
                    Thread {
                        var jitter = SplitMix64(seed: jitterSeeds[producers + receiver])
                        var mine: [Item] = []
                        while let item = channel.receive() {
                            mine.append(item)
                            if channel.depth > capacity { overBound.withLock { $0 += 1 } }
                            if jitter.next() % 8 == 0 { sched_yield() }
                        }
                        received.withLock { $0[receiver] = mine }
                        taken.leave()
                    }.start()
                }
                XCTAssertEqual(sent.wait(timeout: .now() + 120), .success, "seed \(seed) \(policy): a sender hung")
                channel.close()
                XCTAssertEqual(taken.wait(timeout: .now() + 120), .success, "seed \(seed) \(policy): a receiver hung")

                let context = "seed \(seed), \(policy), capacity \(capacity), \(producers)×\(perProducer) → \(receivers)"
                let lists = received.withLock { $0 }
                let all = lists.flatMap { $0 }
                XCTAssertEqual(Set(all).count, all.count, "\(context): an item arrived twice")
                XCTAssertEqual(all.count + channel.droppedTotal, producers * perProducer,
                               "\(context): lost without being counted")
                switch policy {
                case .block: XCTAssertEqual(channel.droppedTotal, 0, "\(context): back-pressure dropped")
                case .refuse: XCTAssertEqual(channel.droppedTotal, refused.withLock { $0 }, context)
                case .dropOldest: XCTAssertEqual(refused.withLock { $0 }, 0, context)
                }
                for list in lists {
                    var last: [Int: Int] = [:]
                    for item in list {
                        XCTAssertLessThan(last[item.producer] ?? -1, item.index, "\(context): out of order")
                        last[item.producer] = item.index
                    }
                }
                XCTAssertLessThanOrEqual(channel.deepest, capacity, "\(context): more than the capacity waited")
                XCTAssertEqual(overBound.withLock { $0 }, 0, context)
            }
        }
    }
}
