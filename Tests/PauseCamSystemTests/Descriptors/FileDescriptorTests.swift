import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import PauseCamSystem
import XCTest

/// `FileDescriptor` closes exactly once, reports what `close` said, refuses calls once closed, and retries a read
/// that a signal interrupted.
final class FileDescriptorTests: XCTestCase {
    /// A second `close()`, and the deinit after it, must not close the number again: by then it may be another
    /// file's. The number is handed to a new file with `dup2` between the two, and must still be open after.
    func testClosesExactlyOnce() throws {
        var pipe: (read: FileDescriptor, write: FileDescriptor)? = try FileDescriptor.pipe(nonBlocking: false)
        let number = pipe!.read.rawValue
        try pipe!.read.close()
        XCTAssertEqual(fcntl(number, F_GETFD), -1, "closed by close()")
        let other = open("/dev/null", O_RDONLY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(other, 0)
        defer { Glibc.close(other) }
        XCTAssertEqual(dup2(other, number), number, "the number now belongs to another file")
        defer { Glibc.close(number) }
        try pipe!.read.close()
        pipe = nil
        XCTAssertNotEqual(fcntl(number, F_GETFD), -1, "neither the second close() nor deinit closed it again")
    }

    /// The deinit of a descriptor nobody closed closes it.
    func testDeinitClosesWhatWasNotClosed() throws {
        var pipe: (read: FileDescriptor, write: FileDescriptor)? = try FileDescriptor.pipe(nonBlocking: false)
        let numbers = [pipe!.read.rawValue, pipe!.write.rawValue]
        XCTAssertNotEqual(fcntl(numbers[0], F_GETFD), -1)
        pipe = nil
        for number in numbers { XCTAssertEqual(fcntl(number, F_GETFD), -1, "descriptor \(number) closed") }
    }

    /// A borrowed descriptor (a standard stream) is used but never closed: not by `close()`, not by deinit.
    func testABorrowedDescriptorIsNeverClosed() throws {
        let pipe = try FileDescriptor.pipe(nonBlocking: false)
        var borrowed: FileDescriptor? = FileDescriptor(borrowing: pipe.write.rawValue)
        XCTAssertEqual(write([5], to: borrowed!), .success(1))
        try borrowed!.close()
        XCTAssertEqual(write([5], to: borrowed!), .failure(.badFileDescriptor), "this object no longer uses it")
        borrowed = nil
        XCTAssertNotEqual(fcntl(pipe.write.rawValue, F_GETFD), -1, "the owner's descriptor is still open")
        XCTAssertEqual(write([6], to: pipe.write), .success(1))
        XCTAssertEqual(read(8, from: pipe.read), .success([5, 6]))
    }

    /// `close()` throws what `close` reported, and releases once even when asked again and then dropped.
    func testCloseReportsTheErrorOnce() {
        let releases = Counter()
        var descriptor: FileDescriptor? = FileDescriptor(owning: 1_000_000, release: { _ in
            releases.increment()
            errno = EIO
            return -1
        })
        XCTAssertThrowsError(try descriptor!.close()) { XCTAssertEqual($0 as? Errno, .ioError) }
        XCTAssertNoThrow(try descriptor!.close(), "already closed: nothing to report")
        descriptor = nil
        XCTAssertEqual(releases.value, 1)
    }

    /// A real `close` failing: the number was closed behind the wrapper's back, so `close` says EBADF.
    func testRealCloseFailureIsReported() throws {
        let pipe = try FileDescriptor.pipe(nonBlocking: false)
        Glibc.close(pipe.write.rawValue)
        XCTAssertThrowsError(try pipe.write.close()) { XCTAssertEqual($0 as? Errno, .badFileDescriptor) }
    }

    /// After `close()`, reads and writes fail with EBADF instead of reaching a number that may be reused.
    func testCallsAfterCloseFailWithBadDescriptor() throws {
        let pipe = try FileDescriptor.pipe(nonBlocking: false)
        try pipe.write.close()
        XCTAssertEqual(write([1], to: pipe.write), .failure(.badFileDescriptor))
        XCTAssertTrue(pipe.write.isClosed)
    }

    func testReadsWhatWasWrittenAndEndOfInput() throws {
        let pipe = try FileDescriptor.pipe(nonBlocking: false)
        XCTAssertEqual(write([7, 7, 7], to: pipe.write), .success(3))
        try pipe.write.close()
        XCTAssertEqual(read(8, from: pipe.read), .success([7, 7, 7]))
        XCTAssertEqual(read(8, from: pipe.read), .success([]), "end of input")
    }

    func testNonBlockingReadOfAnEmptyPipeWouldBlock() throws {
        let pipe = try FileDescriptor.pipe(nonBlocking: true)
        XCTAssertEqual(read(8, from: pipe.read), .failure(.wouldBlock))
        XCTAssertEqual(fcntl(pipe.read.rawValue, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC, "closed on exec")
    }

    /// A read blocked on an empty pipe is interrupted by a signal whose handler does not ask for `SA_RESTART`
    /// (so the kernel returns EINTR); the wrapper reads again and returns the byte written later.
    func testAReadInterruptedByASignalIsRetried() throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in signalsSeen.increment() }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        XCTAssertEqual(sigaction(SIGUSR1, &action, &previous), 0)
        defer { sigaction(SIGUSR1, &previous, nil) }
        let before = signalsSeen.value

        let pipe = try FileDescriptor.pipe(nonBlocking: false)
        let reader = ReaderThread(pipe.read)
        reader.start()
        let deadline = Date(timeIntervalSinceNow: 30)
        while !reader.hasStarted && Date() < deadline { usleep(1_000) }
        usleep(300_000)  // let it block in read(2); if the signal came earlier the read would still be retried
        XCTAssertEqual(pthread_kill(reader.thread, SIGUSR1), 0)
        while signalsSeen.value == before && Date() < deadline { usleep(1_000) }
        usleep(100_000)
        XCTAssertNil(reader.result, "still reading after the signal")
        XCTAssertEqual(write([42], to: pipe.write), .success(1))
        while reader.result == nil && Date() < deadline { usleep(1_000) }
        XCTAssertGreaterThan(signalsSeen.value, before, "the signal reached the reading thread")
        XCTAssertEqual(reader.result, .success(1), "EINTR was retried, not reported")
    }
}

/// `writeAll` of `bytes`, as a result; the count written on success.
private func write(_ bytes: [UInt8], to descriptor: FileDescriptor) -> Result<Int, Errno> {
    bytes.withUnsafeBytes { raw in
        do throws(Errno) {
            try descriptor.writeAll(raw)
            return .success(raw.count)
        } catch { return .failure(error) }
    }
}

/// One `read` of up to `count` bytes, as a result.
private func read(_ count: Int, from descriptor: FileDescriptor) -> Result<[UInt8], Errno> {
    var buffer = [UInt8](repeating: 0, count: count)
    let result: Result<Int, Errno> = buffer.withUnsafeMutableBytes { raw in
        do throws(Errno) { return .success(try descriptor.read(into: raw)) } catch { return .failure(error) }
    }
    return result.map { Array(buffer[..<$0]) }
}

/// A count shared with a `@Sendable` closure or a signal handler.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

/// Signals seen by the test's SIGUSR1 handler (a C function pointer cannot capture).
nonisolated(unsafe) private var signalsSeenStorage = AtomicCounter()
private var signalsSeen: AtomicCounter { signalsSeenStorage }

/// A counter a signal handler may bump: a plain word, no lock (a handler must not take one).
final class AtomicCounter: @unchecked Sendable {
    private let storage = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    init() { storage.initialize(to: 0) }
    var value: Int { storage.pointee }
    func increment() { storage.pointee += 1 }
}

/// A thread that reads one byte from a descriptor and keeps the result.
final class ReaderThread: @unchecked Sendable {
    private let descriptor: FileDescriptor
    private let lock = NSLock()
    private var started = false
    private var outcome: Result<Int, Errno>?
    private(set) var thread = pthread_t()

    init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

    var hasStarted: Bool { lock.withLock { started } }
    var result: Result<Int, Errno>? { lock.withLock { outcome } }

    func start() {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in
            lock.withLock {
                thread = pthread_self()
                started = true
            }
            done.signal()
            var buffer = [UInt8](repeating: 0, count: 1)
            let result: Result<Int, Errno> = buffer.withUnsafeMutableBytes { bytes in
                do throws(Errno) { return .success(try descriptor.read(into: bytes)) } catch { return .failure(error) }
            }
            lock.withLock { outcome = result }
        }
        done.wait()
    }
}
