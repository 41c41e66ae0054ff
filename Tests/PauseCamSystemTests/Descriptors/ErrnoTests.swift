import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import PauseCamSystem
import XCTest

/// `Errno` prints the C name, explains itself with the C library's text, and `retryingOnInterrupt` retries EINTR
/// and nothing else.
final class ErrnoTests: XCTestCase {
    func testNamesAreTheCNames() {
        let table: [(Errno, String, Int32)] = [
            (.interrupted, "EINTR", EINTR), (.wouldBlock, "EAGAIN", EAGAIN), (.badFileDescriptor, "EBADF", EBADF),
            (.noSuchFileOrDirectory, "ENOENT", ENOENT), (.notDirectory, "ENOTDIR", ENOTDIR),
            (.permissionDenied, "EACCES", EACCES), (.notPermitted, "EPERM", EPERM), (.fileExists, "EEXIST", EEXIST),
            (.ioError, "EIO", EIO), (.noSpace, "ENOSPC", ENOSPC), (.brokenPipe, "EPIPE", EPIPE),
            (.invalidArgument, "EINVAL", EINVAL), (.noDevice, "ENODEV", ENODEV), (.busy, "EBUSY", EBUSY),
            (.noMemory, "ENOMEM", ENOMEM),
        ]
        for (errno, name, code) in table {
            XCTAssertEqual(errno.rawValue, code, name)
            XCTAssertEqual(errno.name, name)
            XCTAssertEqual("\(errno)", name, "printing an Errno prints its C name")
            XCTAssertEqual(Errno(rawValue: code), errno)
        }
        XCTAssertEqual(Errno(rawValue: ENOBUFS).name, "ENOBUFS")
        XCTAssertEqual(Errno(rawValue: 9_999).name, "errno 9999", "an unknown number still prints")
    }

    func testMessageIsTheCLibrarysText() {
        XCTAssertEqual(Errno.interrupted.message, "Interrupted system call")
        XCTAssertEqual(Errno.noSpace.message, "No space left on device")
        XCTAssertEqual(Errno.noSuchFileOrDirectory.message, "No such file or directory")
    }

    func testCurrentReadsTheThreadsErrno() {
        errno = EPIPE
        XCTAssertEqual(Errno.current, .brokenPipe)
    }

    /// A call interrupted twice is made a third time and its result returned.
    func testInterruptedCallsAreRetried() {
        var calls = 0
        let result = retryingOnInterrupt { () -> Int in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        XCTAssertEqual(try result.get(), 7)
        XCTAssertEqual(calls, 3)
    }

    /// Any other failure is returned at once, with the errno it set.
    func testOtherFailuresAreReturnedAtOnce() {
        var calls = 0
        let result = retryingOnInterrupt { () -> Int32 in
            calls += 1
            errno = EIO
            return -1
        }
        XCTAssertEqual(calls, 1)
        guard case .failure(let error) = result else { return XCTFail("expected EIO, got \(result)") }
        XCTAssertEqual(error, .ioError)
    }
}
