import Foundation

/// The periodic work of `RigController` while a clip records: holding the last picture when the active lens is
/// late, and the `HealthCheck` rounds (encoder drops, free disk). Each timer belongs to one recorder and ends with it.
extension RigController {
    /// Every `storagePolicy.interval` while `recorder` records: one round of `HealthCheck`, performed.
    func scheduleHealthCheck(for recorder: Recorder, _ check: HealthCheck) {
        let controller = WeakSerialContextBound(self, serialContext: serialContext)
        let clip = WeakSerialContextBound(recorder, serialContext: serialContext)
        serialContext.schedule(at: serialContext.clock.now() + clips.storagePolicy.interval) {
            guard let self = controller.object, let recorder = clip.object, recorder === self.clips.recorder,
                  recorder.session.state == .recording || recorder.session.state == .paused else { return }
            var check = check
            let free = self.clips.storage?.availableBytes(at: self.clips.outputDirectory)
            let storage = self.clips.storage
            let reserve = recorder.finishingReserve { storage?.fileSize(at: $0) ?? 0 }.bytes
            let actions = check.check(droppedFrames: recorder.droppedVideoFrames, freeBytes: free,
                                      finishingBytes: reserve, partialDeleted: recorder.partialFileDeleted,
                                      partialPath: recorder.partialPath, suspensions: recorder.suspensions,
                                      now: self.serialContext.clock.now())
            recorder.healthCheck = check
            self.measureTimeLeft(of: recorder, freeBytes: free, finishingBytes: reserve)
            for action in actions {
                switch action {
                case .notify(let event): self.notify(event)
                case .warnClip(let event):
                    self.notify(event)
                    recorder.warn(event.text)
                case .stop(let reason):
                    self.clips.interrupt(reason: reason)
                    _ = self.execute(.stop, at: self.serialContext.clock.now())
                    self.serialContext.interrupt()
                    return
                }
            }
            self.scheduleHealthCheck(for: recorder, check)
        }
    }

    /// Every `holdInterval` while `recorder` records: the output clock's slots older than `holdAfter` are decided
    /// with the last picture. While the active camera delivers, they are decided already and this does nothing.
    /// A tick that comes far later than due means the process stood still (`SuspensionDetector`): the user and
    /// the clip are told, before the held picture fills the gap.
    func scheduleVideoHold(for recorder: Recorder, _ detector: SuspensionDetector = SuspensionDetector()) {
        let controller = WeakSerialContextBound(self, serialContext: serialContext)
        let clip = WeakSerialContextBound(recorder, serialContext: serialContext)
        serialContext.schedule(at: serialContext.clock.now() + Self.holdInterval) {
            guard let self = controller.object, let recorder = clip.object, recorder === self.clips.recorder,
                  recorder.session.state == .recording || recorder.session.state == .paused else { return }
            let now = self.serialContext.clock.now()
            var detector = detector
            if let gap = detector.tick(at: now, interval: Self.holdInterval) {
                recorder.suspensions += 1
                let event = EngineEvent.suspended(duration: gap)
                self.notify(event)
                recorder.warn(event.text)
            }
            self.perform(self.bank.handle(.tick(now: now)))
            if let before = try? now.subtracting(Self.holdAfter) {
                recorder.holdVideo(before: before)
                self.stopIfFailed(recorder, at: now)
            }
            self.scheduleVideoHold(for: recorder, detector)
        }
    }
}
