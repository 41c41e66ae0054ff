import Foundation

/// Decides when a streaming camera that sends nothing is restarted, and when PauseCam stops trying.
///
/// A USB camera can stay open and streaming yet stop delivering frames (a firmware hang, a bus reset the driver did
/// not report). The movie already bridges the gap (the held picture, then the slate); this brings the camera back.
/// The owner feeds it the camera's frame count at regular checks on the serial context; it answers with actions:
///
/// - `limit` without a new frame: restart the stream (attempt 1: stop and start streaming, `STREAMOFF`/`STREAMON`);
/// - still nothing after the backoff (`limit`, then twice, then four times as long): attempts 2 and 3 close and
///   reopen the device;
/// - still nothing after the last backoff: give up (said once); a frame at any time means the camera is back.
///
/// A struct with `handle(_:)` returning actions; the owner does the I/O (`DeviceHub+Watchdog`).
public struct FreezeWatchdog: Sendable, Equatable {
    /// How many restarts are tried before PauseCam gives up on the camera.
    public static let maximumRestarts = 3

    /// Where the watch stands.
    public enum State: Sendable, Equatable {
        /// The camera is not streaming (never started, stopped, or gone): nothing is watched.
        case idle
        /// Frames came; `frames` were counted at `since`, the last time the count moved.
        case watching(since: MediaTime, frames: Int)
        /// Restart `attempt` was made at `at`; the camera has sent nothing since `silentSince`.
        case restarting(attempt: Int, at: MediaTime, frames: Int, silentSince: MediaTime)
        /// Every restart was tried and the camera still sends nothing.
        case gaveUp(frames: Int, restarts: Int)
    }

    /// What happened to the camera.
    public enum Event: Sendable, Equatable {
        /// The camera was started (by the lens bank: rig start, cold switch, re-plug) with `frames` counted so far.
        case started(at: MediaTime, frames: Int)
        /// The camera was stopped or went away: not watched until it starts again.
        case stopped
        /// A regular check: the time and the frames counted so far.
        case check(now: MediaTime, frames: Int)
        /// A check that came more than `limit` late: the process itself stood still (stopped with Ctrl-Z or
        /// SIGSTOP, the machine asleep) and the camera's silence is not its own. The wait starts over from now.
        case resumed(at: MediaTime, frames: Int)
    }

    /// What the owner does.
    public enum Action: Sendable, Equatable {
        /// Restart the camera: with `reopen`, close and reopen the device; otherwise stop and start its stream.
        /// `silence` is how long it has sent nothing.
        case restart(attempt: Int, reopen: Bool, silence: MediaTime)
        /// Frames again after `restarts` restarts.
        case recovered(restarts: Int)
        /// Every restart failed to bring frames back after `silence`; nothing more is tried.
        case gaveUp(restarts: Int, silence: MediaTime)
    }

    /// How long the camera may send nothing before the first restart.
    public let limit: MediaTime
    public private(set) var state: State = .idle

    public init(limit: MediaTime) {
        self.limit = limit
    }

    /// How often the owner should check: a quarter of the limit, so a freeze is acted on within 1.25 × `limit`.
    public var checkInterval: MediaTime {
        (try? limit.rescaled(to: 1000, rounding: .up)).map { MediaTime(value: max(1, $0.value / 4), timescale: 1000) }
            ?? .milliseconds(500)
    }

    /// How long after restart `attempt` the next step waits: the limit, doubled at each attempt.
    public func backoff(after attempt: Int) -> MediaTime {
        (try? limit.multiplied(by: Int64(1) << Int64(max(0, attempt - 1)))) ?? limit
    }

    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .started(let now, let frames):
            state = .watching(since: now, frames: frames)
            return []
        case .stopped:
            state = .idle
            return []
        case .check(let now, let frames):
            return check(now: now, frames: frames)
        case .resumed(let now, let frames):
            switch state {
            case .watching:
                state = .watching(since: now, frames: frames)
            case .restarting(let attempt, _, _, let silentSince):
                state = .restarting(attempt: attempt, at: now, frames: frames, silentSince: silentSince)
            case .idle, .gaveUp:
                break
            }
            return []
        }
    }

    private mutating func check(now: MediaTime, frames: Int) -> [Action] {
        switch state {
        case .idle:
            return []
        case .watching(let since, let counted):
            if frames != counted {
                state = .watching(since: now, frames: frames)
                return []
            }
            guard elapsed(since, now) >= limit else { return [] }
            state = .restarting(attempt: 1, at: now, frames: frames, silentSince: since)
            return [.restart(attempt: 1, reopen: false, silence: elapsed(since, now))]
        case .restarting(let attempt, let at, let counted, let silentSince):
            if frames != counted {
                state = .watching(since: now, frames: frames)
                return [.recovered(restarts: attempt)]
            }
            guard elapsed(at, now) >= backoff(after: attempt) else { return [] }
            guard attempt < Self.maximumRestarts else {
                state = .gaveUp(frames: frames, restarts: attempt)
                return [.gaveUp(restarts: attempt, silence: elapsed(silentSince, now))]
            }
            state = .restarting(attempt: attempt + 1, at: now, frames: frames, silentSince: silentSince)
            return [.restart(attempt: attempt + 1, reopen: true, silence: elapsed(silentSince, now))]
        case .gaveUp(let counted, let restarts):
            guard frames != counted else { return [] }
            state = .watching(since: now, frames: frames)
            return [.recovered(restarts: restarts)]
        }
    }

    private func elapsed(_ from: MediaTime, _ to: MediaTime) -> MediaTime {
        (try? to.subtracting(from)) ?? .zero
    }
}
