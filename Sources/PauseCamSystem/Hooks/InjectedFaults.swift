import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PauseCamCore

/// The program's `SystemHooks`: the faults the `PAUSECAM_FAULT_*` variables ask for, which the composition root
/// reads and hands over as plain values, so end-to-end tests and demonstrations can show what a slow or crashing
/// machine does. The types it hooks into cannot tell a fault from a slow machine or a power cut. The program makes
/// one only when a variable is set; otherwise the writer has no hooks at all.
public struct InjectedFaults: SystemHooks {
    /// Extra time spent on every video frame's picture, as on a machine that cannot keep up.
    public var encodeDelay: MediaTime
    /// Extra time spent opening every movie, as x264 and the file take on a slow machine.
    public var openDelay: MediaTime
    /// Each finish waits until this file exists before making the movie (at most `gateLimit`), as a long clip's
    /// remux takes: the test decides when it ends instead of racing a guessed delay.
    public var remuxGate: String?
    /// The process kills itself (SIGKILL) at this step of the in-place finish, to show what a crash there leaves.
    public var killAt: InPlaceFinishStep?
    /// How long a finish waits for `remuxGate`: a test that forgot to open the gate still ends.
    static let gateLimit = Duration.seconds(120)

    public init(encodeDelay: MediaTime = .zero, openDelay: MediaTime = .zero, remuxGate: String? = nil,
                killAt: InPlaceFinishStep? = nil) {
        self.encodeDelay = encodeDelay
        self.openDelay = openDelay
        self.remuxGate = remuxGate
        self.killAt = killAt
    }

    /// True when no fault is asked for: the program then passes no hooks.
    public var isEmpty: Bool { encodeDelay <= .zero && openDelay <= .zero && remuxGate == nil && killAt == nil }

    public func willOpenMovie(_ moviePath: String) { Self.sleep(openDelay) }

    public func willEncodeVideoFrame() { Self.sleep(encodeDelay) }

    public func willFinishMovie(_ moviePath: String) {
        guard let remuxGate else { return }
        let giveUp = ContinuousClock.now + Self.gateLimit
        while !FileManager.default.fileExists(atPath: remuxGate) && ContinuousClock.now < giveUp {
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    public func didReachFinishStep(_ step: InPlaceFinishStep) {
        if step == killAt { kill(getpid(), SIGKILL) }
    }

    private static func sleep(_ delay: MediaTime) {
        let microseconds = UInt32(clamping: (try? delay.rescaled(to: 1_000_000, rounding: .up).value) ?? 0)
        if microseconds > 0 { usleep(microseconds) }
    }
}
