import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import PauseCamSystem
import XCTest

/// `HeapStatistics` reads glibc's own figures: a block from an arena shows in `inUseBytes`, a large one in
/// `mappedBytes`, and both leave again when freed — the soak's heap floor relies on exactly that.
///
/// The figures are the whole process's, every thread's arena. Inside the suite, other threads (dispatch workers,
/// engines that earlier tests started and that are winding down) malloc and free between two snapshots: CI once
/// saw a 64 KiB block count as 65,184 bytes, because another thread freed 352 bytes in between. Even a fresh
/// process of the test binary has four dispatch workers. So the snapshots are taken in a `fork`ed child, which
/// holds only the forking thread: nothing else can touch the heap there. The child does nothing but malloc, free
/// and `mallinfo2` (glibc makes its allocator usable in a forked child), writes its figures down a pipe and exits.
final class HeapStatisticsTests: XCTestCase {
    /// Under a sanitizer the sanitizer's own allocator serves malloc and glibc's arenas stay empty, so `mallinfo2`
    /// has nothing to report: the figures this class checks do not exist there.
    override func setUpWithError() throws {
        if let sanitizer = ProcessInfo.processInfo.environment["PAUSECAM_UNDER_SANITIZER"] {
            throw XCTSkip("under the \(sanitizer) sanitizer its allocator replaces glibc's, and mallinfo2 reads 0")
        }
    }

    /// Snapshots before, while and after `size` bytes are held, taken in a single-threaded child process.
    func snapshotsInForkedChild(holding size: Int) -> (before: HeapStatistics, held: HeapStatistics,
                                                       after: HeapStatistics) {
        var pipeEnds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&pipeEnds), 0, "pipe: \(String(cString: strerror(errno)))")
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        defer { close(readEnd) }
        // `HeapStatistics` is plain integers: the three snapshots go down the pipe as they are.
        let results = UnsafeMutablePointer<HeapStatistics>.allocate(capacity: 3)
        defer { results.deallocate() }
        let length = 3 * MemoryLayout<HeapStatistics>.stride
        _ = HeapStatistics.current()  // any first-call work happens here, before the fork, not in the child
        let child = fork()
        if child == 0 {
            close(readEnd)
            // The child inherits the parent's heap: an arena top that earlier tests left larger than the block
            // would serve it from the arena. Trimmed, only the block's own request decides where it comes from.
            HeapStatistics.releaseFreeMemory()
            results[0] = HeapStatistics.current()
            let block = malloc(size)
            results[1] = HeapStatistics.current()
            free(block)
            results[2] = HeapStatistics.current()
            _exit(block != nil && write(writeEnd, results, length) == length ? 0 : 1)
        }
        close(writeEnd)
        XCTAssertGreaterThan(child, 0, "fork: \(String(cString: strerror(errno)))")
        var status: Int32 = 0
        XCTAssertEqual(waitpid(child, &status, 0), child)
        XCTAssertEqual(status, 0, "the child malloc'ed its block and wrote its figures")
        XCTAssertEqual(read(readEnd, results, length), length, "the child's figures arrived whole")
        return (results[0], results[1], results[2])
    }

    func testAnArenaBlockCountsInUseUntilFreed() throws {
        // Below glibc's mmap threshold (128 KiB unless freed mappings raised it), so it comes from an arena.
        let size = 64 * 1024
        let (before, held, after) = snapshotsInForkedChild(holding: size)
        XCTAssertGreaterThanOrEqual(held.inUseBytes - before.inUseBytes, size, "a 64 KiB block is in use")
        XCTAssertGreaterThanOrEqual(held.inUseBytes - after.inUseBytes, size, "and is not once freed")
        XCTAssertEqual(held.mappedBytes, before.mappedBytes, "an arena block is not a mapping of its own")
        XCTAssertEqual(held.arenaBytes, held.inUseBytes + held.freeBytes, "an arena is its used and free bytes")
    }

    func testALargeBlockCountsAsMappedUntilFreed() throws {
        // Far above glibc's largest dynamic mmap threshold (32 MiB on 64-bit), so it is always its own mapping.
        let size = 64 * 1024 * 1024
        let (before, held, after) = snapshotsInForkedChild(holding: size)
        XCTAssertGreaterThanOrEqual(held.mappedBytes - before.mappedBytes, size)
        XCTAssertGreaterThanOrEqual(held.allocatedBytes - after.allocatedBytes, size)
        XCTAssertLessThan(abs(held.inUseBytes - before.inUseBytes), size, "a mapped block is not in an arena")
    }
}
