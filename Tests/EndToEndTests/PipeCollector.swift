import Foundation

/// Collects what a child process writes to one pipe, as it comes, and knows when the pipe has ended.
///
/// A process that has exited may still have its last lines in the pipe: the readability handler runs on a dispatch
/// thread, so "the process is not running" says nothing about whether they were collected. The pipe's end (the
/// handler reading no data) does: it comes only after everything the writers wrote, once every writer has closed
/// its end.
final class PipeCollector: @unchecked Sendable {
    let pipe = Pipe()
    private let lock = NSLock()
    private var data = Data()
    private let ended = DispatchSemaphore(value: 0)

    init() {
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            guard let self else { return }
            if chunk.isEmpty {
                // The end; the handler would otherwise be called again and again.
                handle.readabilityHandler = nil
                self.ended.signal()
            } else {
                self.lock.withLock { self.data.append(chunk) }
            }
        }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    /// Waits (at most `seconds`) for the pipe's end; true when it came, and everything written has been collected.
    func waitForEnd(seconds: Double = 10) -> Bool {
        ended.wait(timeout: .now() + seconds) == .success
    }

    deinit { pipe.fileHandleForReading.readabilityHandler = nil }
}
