import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import PauseCamSystem
import XCTest

/// `HeapStatistics` reads glibc's own figures: a block from an arena shows in `inUseBytes`, a large one in
/// `mappedBytes`, and both leave again when freed — the soak's heap floor relies on exactly that.
final class HeapStatisticsTests: XCTestCase {
    func testAnArenaBlockCountsInUseUntilFreed() throws {
        let size = 64 * 1024
        let before = HeapStatistics.current()
        let block = try XCTUnwrap(malloc(size))
        let held = HeapStatistics.current()
        free(block)
        let after = HeapStatistics.current()
        XCTAssertGreaterThanOrEqual(held.inUseBytes - before.inUseBytes, size, "a 64 KiB block is in use")
        XCTAssertGreaterThanOrEqual(held.inUseBytes - after.inUseBytes, size, "and is not once freed")
        XCTAssertEqual(held.arenaBytes, held.inUseBytes + held.freeBytes, "an arena is its used and free bytes")
    }

    func testALargeBlockCountsAsMappedUntilFreed() throws {
        // Far above glibc's largest dynamic mmap threshold (32 MiB on 64-bit), so it is always its own mapping.
        let size = 64 * 1024 * 1024
        let before = HeapStatistics.current()
        let block = try XCTUnwrap(malloc(size))
        let held = HeapStatistics.current()
        free(block)
        let after = HeapStatistics.current()
        XCTAssertGreaterThanOrEqual(held.mappedBytes - before.mappedBytes, size)
        XCTAssertGreaterThanOrEqual(held.allocatedBytes - after.allocatedBytes, size)
        XCTAssertLessThan(abs(held.inUseBytes - before.inUseBytes), size, "a mapped block is not in an arena")
    }
}
