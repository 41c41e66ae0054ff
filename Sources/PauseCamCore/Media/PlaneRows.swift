/// One plane of a picture as its first byte and its row stride in bytes. The caller owns the memory and keeps it
/// alive and unshared while a converter works on it.
/// Unchecked Sendable: a raw pointer to memory the caller keeps alive and unshared while a converter works on it.
public struct PlaneRows: @unchecked Sendable {
    /// The first byte of the first row.
    public var base: UnsafeMutablePointer<UInt8>
    /// Bytes from one row to the next (at least the row's width; FFmpeg pads it).
    public var stride: Int

    /// A plane starting at `base` with rows `stride` bytes apart.
    public init(base: UnsafeMutablePointer<UInt8>, stride: Int) {
        self.base = base
        self.stride = stride
    }
}
