import Foundation
import XCTest
import PauseCamCore
@testable import PauseCamSystem

/// The event stream's queue: the newest `capacity` events in order, the oldest dropped, and a waiting read that
/// returns within its second whether or not news comes.
final class EventStreamTests: XCTestCase {
    private func readAll(_ stream: EventStream) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            guard let count = buffer.withUnsafeMutableBytes({ stream.read(into: $0) }) else { return nil }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += buffer[..<count]
        }
    }

    func testAViewerThatDoesNotReadKeepsTheNewestEventsInOrder() throws {
        let stream = EventStream(isStopping: { false }, onClose: { _ in })
        for index in 0..<(EventStream.capacity + 44) { stream.send("{\"n\":\(index)}") }
        let text = try XCTUnwrap(readAll(stream))
        XCTAssertTrue(text.hasPrefix("retry: 1000\n\n"), text)
        let numbers = text.components(separatedBy: "\n\n").filter { $0.hasPrefix("data: ") }
            .map { Int($0.dropFirst("data: {\"n\":".count).dropLast()) ?? -1 }
        XCTAssertEqual(numbers, Array(44..<(EventStream.capacity + 44)))
    }

    func testAReadWithoutNewsReturnsAndNewsIsSentByTheNextRead() throws {
        let stream = EventStream(isStopping: { false }, onClose: { _ in })
        XCTAssertEqual(readAll(stream), "retry: 1000\n\n")
        XCTAssertEqual(readAll(stream), "", "no news within a second: nothing, and the read returned")
        stream.send("{}")
        XCTAssertEqual(readAll(stream), "data: {}\n\n")
    }

    func testAStoppingServerEndsTheStreamAndCloseRunsOnce() {
        let closes = Counter()
        let stopping = Counter()
        let stream = EventStream(isStopping: { stopping.value > 0 }, onClose: { _ in closes.add() })
        _ = readAll(stream)
        stopping.add()
        stream.wake()
        XCTAssertNil(readAll(stream))
        stream.close()
        stream.close()
        XCTAssertEqual(closes.value, 1)
    }

    final class Counter: Sendable {
        private let count = Guarded(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }
}
