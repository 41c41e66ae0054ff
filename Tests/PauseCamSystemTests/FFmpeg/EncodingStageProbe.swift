import Foundation
@testable import PauseCamSystem

/// The tests' `SystemHooks` for the encoding stages: holds a stage's thread before its next unit of work until released, and
/// counts the work each stage has finished, so a test can wait for "everything handed over is encoded and muxed"
/// instead of guessing with a sleep.
/// Unchecked Sendable: every stored property is read and written only under `condition`.
final class EncodingStageProbe: SystemHooks, @unchecked Sendable {
    private let condition = NSCondition()
    private var held: Set<EncodingStage> = []
    private var started: [EncodingStage: Int] = [:]
    private var finished: [EncodingStage: Int] = [:]

    /// The stage's thread stops before its next unit of work (and every one after) until `release(stage)`.
    func hold(_ stage: EncodingStage) {
        condition.withLock { _ = held.insert(stage) }
    }

    /// Lets a held stage go on.
    func release(_ stage: EncodingStage) {
        condition.withLock {
            held.remove(stage)
            condition.broadcast()
        }
    }

    /// Units of work the stage has taken.
    func taken(_ stage: EncodingStage) -> Int { condition.withLock { started[stage, default: 0] } }

    /// Units of work the stage has finished.
    func handled(_ stage: EncodingStage) -> Int { condition.withLock { finished[stage, default: 0] } }

    /// Waits until the stage has finished `count` units of work; false if that takes longer than `timeout` seconds
    /// (a generous bound that only a broken writer reaches).
    func waitUntil(_ stage: EncodingStage, handled count: Int, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while finished[stage, default: 0] < count {
                if !condition.wait(until: deadline) { return finished[stage, default: 0] >= count }
            }
            return true
        }
    }

    func willHandle(_ stage: EncodingStage) {
        condition.withLock {
            started[stage, default: 0] += 1
            while held.contains(stage) { condition.wait() }
        }
    }

    func didHandle(_ stage: EncodingStage) {
        condition.withLock {
            finished[stage, default: 0] += 1
            condition.broadcast()
        }
    }
}
