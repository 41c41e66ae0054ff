import Foundation
import XCTest
@testable import PauseCamCore

/// Scene-boundary sidecars written on the finishing worker: in order, and a failure is reported, not lost.
final class SidecarWriterTests: XCTestCase {
    final class FlakyStore: SidecarStore, @unchecked Sendable {
        var writes: [String] = []
        var failNext = false
        func write(_ data: Data, to path: String) throws {
            if failNext {
                failNext = false
                throw SidecarWriteFailure(description: "disk full")
            }
            writes.append(String(decoding: data, as: UTF8.self))
        }
    }

    func testOnlyTheNewestWaitingWriteIsWrittenAndItComesBeforeTheFinalOne() {
        let store = FlakyStore()
        let worker = BackgroundFinishTests.HeldWorker()
        let writer = SidecarWriter(store: store, worker: worker)
        for index in 1...3 { XCTAssertNoThrow(try writer.write(Data("\(index)".utf8), to: "clip.json")) }
        XCTAssertNoThrow(try writer.write(Data("other".utf8), to: "other.json"))
        XCTAssertEqual(store.writes, [], "the caller waited for the disk")
        worker.submit { try? writer.writeNow(Data("final".utf8), to: "clip.json") }
        worker.release()
        XCTAssertEqual(store.writes, ["3", "other", "final"])
    }

    func testAWriteAfterTheWorkerTookTheLastOneIsWrittenToo() {
        let store = FlakyStore()
        let writer = SidecarWriter(store: store, worker: InlineWorker())
        for index in 1...3 { XCTAssertNoThrow(try writer.write(Data("\(index)".utf8), to: "clip.json")) }
        XCTAssertEqual(store.writes, ["1", "2", "3"])
    }

    func testAFailedBackgroundWriteIsThrownByTheNextWriteAndKeptForTheFinalSidecar() {
        let store = FlakyStore()
        let writer = SidecarWriter(store: store, worker: InlineWorker())
        store.failNext = true
        XCTAssertNoThrow(try writer.write(Data("1".utf8), to: "clip.json"))
        XCTAssertThrowsError(try writer.write(Data("2".utf8), to: "clip.json")) { error in
            XCTAssertEqual("\(error)", "disk full")
        }
        store.failNext = true
        XCTAssertNoThrow(try writer.write(Data("3".utf8), to: "clip.json"))
        XCTAssertEqual(writer.takeFailures(), ["disk full"])
        XCTAssertEqual(writer.takeFailures(), [])
        XCTAssertEqual(store.writes, ["2"])
    }
}
