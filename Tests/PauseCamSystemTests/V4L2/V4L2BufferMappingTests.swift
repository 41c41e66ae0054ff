import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import PauseCamSystem
import XCTest

/// A `V4L2BufferMapping` is the mapping: readable while held, unmapped when the last reference goes. A regular
/// file stands in for a capture buffer (the kernel path maps it like a node's buffer; no camera needed).
final class V4L2BufferMappingTests: XCTestCase {
    func testTheMappingLivesAsLongAsItsObject() throws {
        let path = NSTemporaryDirectory() + "pausecam-mapping-\(UUID().uuidString)"
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var content = [UInt8](repeating: 0, count: page)
        content[0...3] = [1, 2, 3, 4]
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(content)))
        defer { unlink(path) }
        let file = try FileDescriptor.open(path, O_RDWR | O_CLOEXEC)

        var mapping: V4L2BufferMapping? = try V4L2BufferMapping.map(descriptor: file.rawValue, offset: 0,
                                                                    length: page, access: .kernel).get()
        let address = mapping!.address
        XCTAssertEqual(mapping!.bytes(count: 4), [1, 2, 3, 4])
        XCTAssertEqual(mapping!.bytes(count: page * 2).count, page, "never reads past the buffer")
        XCTAssertEqual(msync(address, page, MS_ASYNC), 0, "mapped while the object lives")
        mapping = nil
        XCTAssertEqual(msync(address, page, MS_ASYNC), -1, "unmapped when the object went")
        XCTAssertEqual(Errno.current, .noMemory)
    }

    /// A read-only descriptor cannot be mapped for writing: the kernel's EACCES comes back as the failure.
    func testARefusedMapReportsTheErrno() throws {
        let pipe = try FileDescriptor.pipe(nonBlocking: false)
        let result = V4L2BufferMapping.map(descriptor: pipe.read.rawValue, offset: 0, length: 4096, access: .kernel)
        guard case .failure(let error) = result else { return XCTFail("a pipe was mapped") }
        XCTAssertEqual(error, .permissionDenied)
    }
}
