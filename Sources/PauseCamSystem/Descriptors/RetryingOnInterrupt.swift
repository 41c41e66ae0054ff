/// Runs a C call that reports failure as -1 with `errno`, again and again while it fails with `EINTR` (a signal
/// arrived before the call did anything), and returns its result or the errno it failed with. Every system call of
/// this module that can be interrupted goes through here, so "retry EINTR" is written once. (`close` is the
/// exception: on Linux the descriptor is gone even when it reports EINTR, so it is never retried.)
func retryingOnInterrupt<Result: FixedWidthInteger>(_ call: () -> Result) -> Swift.Result<Result, Errno> {
    while true {
        let value = call()
        if value != -1 { return .success(value) }
        let failure = Errno.current
        if failure != .interrupted { return .failure(failure) }
    }
}
