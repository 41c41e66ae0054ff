import CV4L2
import Foundation

/// One capture buffer of a V4L2 node mapped into memory: whoever holds the object holds the mapping, and it is
/// unmapped exactly once, when the last reference goes (`V4L2DeviceNode` keeps them inside its mutex, so a
/// copy out of the buffer never races the unmap). Mapping the same index again replaces, and so unmaps, the old one.
final class V4L2BufferMapping {
    let address: UnsafeMutableRawPointer
    let length: Int
    private let access: V4L2DeviceNode.Access

    /// Maps `length` bytes at `offset` of the node `descriptor`, through the same library that opened it; `nil`
    /// with the errno when the kernel refuses. The corresponding C function is `v4l2_mmap` (or `mmap`).
    static func map(descriptor: Int32, offset: UInt32, length: Int,
                    access: V4L2DeviceNode.Access) -> Result<V4L2BufferMapping, Errno> {
        let address = access == .libv4l2
            ? v4l2_mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, Int64(offset))
            : mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, off_t(offset))
        guard let address, address != pausecam_map_failed() else { return .failure(Errno.current) }
        return .success(V4L2BufferMapping(address: address, length: length, access: access))
    }

    private init(address: UnsafeMutableRawPointer, length: Int, access: V4L2DeviceNode.Access) {
        self.address = address
        self.length = length
        self.access = access
    }

    /// The corresponding C function is `v4l2_munmap` (or `munmap`); a failure leaves nothing to do.
    deinit {
        _ = access == .libv4l2 ? v4l2_munmap(address, length) : munmap(address, length)
    }

    /// The first `count` bytes (at most the buffer's length), copied out.
    func bytes(count: Int) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: address, count: min(count, length)))
    }
}
