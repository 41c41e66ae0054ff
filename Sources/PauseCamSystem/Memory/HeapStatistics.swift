import CMalloc

/// The C heap's own account of its memory (glibc's `malloc`, which Swift, Foundation and FFmpeg all allocate from),
/// for telling real growth apart from allocator noise: the resident size wanders by megabytes as freed chunks are
/// kept or returned, while the bytes in use only move when something is really held.
///
/// Figures cover every arena (every thread's). They are a snapshot; reading them takes the arenas' locks briefly.
public struct HeapStatistics: Sendable, Equatable {
    /// Bytes handed out by `malloc` and not yet freed, in the arenas (`uordblks`). Not including `mappedBytes`.
    public var inUseBytes: Int
    /// Bytes the arenas hold free for reuse (`fordblks`): resident when touched, not growth.
    public var freeBytes: Int
    /// Bytes of the blocks too large for an arena, each its own `mmap` (`hblkhd`), all in use.
    public var mappedBytes: Int
    /// Bytes the arenas got from the system (`arena`): `inUseBytes + freeBytes`.
    public var arenaBytes: Int

    /// Everything allocated and not freed: arena blocks in use plus the separately mapped ones.
    public var allocatedBytes: Int { inUseBytes + mappedBytes }

    public init(inUseBytes: Int, freeBytes: Int, mappedBytes: Int, arenaBytes: Int) {
        self.inUseBytes = inUseBytes
        self.freeBytes = freeBytes
        self.mappedBytes = mappedBytes
        self.arenaBytes = arenaBytes
    }

    /// The heap's figures now. The corresponding C function is `mallinfo2`.
    public static func current() -> HeapStatistics {
        let info = mallinfo2()
        return HeapStatistics(inUseBytes: Int(info.uordblks), freeBytes: Int(info.fordblks),
                              mappedBytes: Int(info.hblkhd), arenaBytes: Int(info.arena))
    }

    /// Gives the arenas' free memory back to the system, the top of each arena included. A large free top (left by
    /// earlier work, kept because glibc's trim threshold grows with the mmap threshold) would otherwise serve even a
    /// request far above the mmap threshold from the arena instead of a mapping of its own. The corresponding C
    /// function is `malloc_trim`.
    public static func releaseFreeMemory() {
        _ = malloc_trim(0)
    }
}
