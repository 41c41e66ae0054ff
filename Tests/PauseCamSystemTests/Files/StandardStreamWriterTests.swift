import Foundation
import PauseCamSystem
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The one writer of standard output and error: whole writes, and a vanished reader or closed descriptor silences
/// the stream instead of ending the process (Foundation's `FileHandle.write` traps on both).
final class StandardStreamWriterTests: XCTestCase {
    override func setUp() {
        super.setUp()
        // As `main` does: without it a write to a pipe with no reader kills this test process with SIGPIPE.
        BrokenPipe.ignore()
    }

    func testAPipeWithNoReaderSilencesTheStreamQuietly() throws {
        let (readEnd, writeEnd) = try Self.makePipe()
        defer { close(writeEnd) }
        close(readEnd)
        let writer = StandardStreamWriter(descriptor: writeEnd)
        writer.write("first line\n")
        XCTAssertEqual(writer.goneReason, .brokenPipe)
        writer.write("later lines are dropped without another write\n")
        XCTAssertEqual(writer.goneReason, .brokenPipe)
    }

    func testAClosedDescriptorSilencesTheStream() throws {
        let (readEnd, writeEnd) = try Self.makePipe()
        close(readEnd)
        close(writeEnd)
        let writer = StandardStreamWriter(descriptor: writeEnd)
        writer.write("nowhere\n")
        XCTAssertEqual(writer.goneReason, .badFileDescriptor)
    }

    func testALargeWriteArrivesWholeThroughANonBlockingPipeThatTakesItInParts() throws {
        let (readEnd, writeEnd) = try Self.makePipe()
        // 1 MiB is sixteen times a Linux pipe's buffer: the write goes through in many partial writes, and as the
        // descriptor does not block (as when another program made a shared terminal non-blocking), some meet
        // EAGAIN and must wait, not give up.
        XCTAssertEqual(fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK), 0)
        let text = String((0..<(1 << 20)).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) })
        final class Box: @unchecked Sendable { var data = Data() }
        let received = Box()
        let done = DispatchSemaphore(value: 0)
        Thread {
            received.data = FileHandle(fileDescriptor: readEnd, closeOnDealloc: true).readDataToEndOfFile()
            done.signal()
        }.start()
        let writer = StandardStreamWriter(descriptor: writeEnd)
        writer.write(text)
        close(writeEnd)
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertNil(writer.goneReason)
        XCTAssertEqual(received.data.count, text.utf8.count)
        XCTAssertEqual(received.data, Data(text.utf8))
    }

    func testWritesFromManyThreadsStayWhole() throws {
        let (readEnd, writeEnd) = try Self.makePipe()
        let writer = StandardStreamWriter(descriptor: writeEnd)
        final class Box: @unchecked Sendable { var data = Data() }
        let received = Box()
        let done = DispatchSemaphore(value: 0)
        Thread {
            received.data = FileHandle(fileDescriptor: readEnd, closeOnDealloc: true).readDataToEndOfFile()
            done.signal()
        }.start()
        let line = String(repeating: "x", count: 10_000) + "\n"
        DispatchQueue.concurrentPerform(iterations: 32) { _ in writer.write(line) }
        close(writeEnd)
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        let lines = String(decoding: received.data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 33, "32 lines and the empty rest after the last newline")
        XCTAssertTrue(lines.dropLast().allSatisfy { $0.count == 10_000 }, "no line was interleaved with another")
    }

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard ends.withUnsafeMutableBufferPointer({ pipe($0.baseAddress) }) == 0 else {
            throw XCTSkip("pipe() failed: \(String(cString: strerror(errno)))")
        }
        return (ends[0], ends[1])
    }
}
