import Glibc

/// The calling thread's name as the kernel keeps it (`/proc/PID/task/TID/comm`, what `top -H`, `ps -L`, `perf` and
/// gdb show): at most 15 bytes, so a longer name is cut there. Foundation's `Thread.name` does not reach the kernel
/// on Linux, so a thread whose work matters to a profile, or to a test counting encoders from outside, sets it here
/// as its first step. Written to `/proc/thread-self/comm` (the kernel cuts it), because `pthread_setname_np` and
/// `prctl(PR_SET_NAME)` are not importable here (a GNU extension, a variadic function).
enum KernelThreadName {
    /// Names the calling thread `name`; a failure (no `/proc`) only leaves the old name.
    static func set(_ name: String) {
        guard let file = try? FileDescriptor.open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC) else { return }
        let bytes = Array(name.utf8)
        bytes.withUnsafeBytes { _ = try? file.writeAll($0) }
        try? file.close()
    }
}
