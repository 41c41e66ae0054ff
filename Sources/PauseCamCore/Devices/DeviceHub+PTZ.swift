import Foundation

/// The PTZ side of `DeviceHub`: a lens's motorised zoom, pan and tilt are moved on the device worker, through one
/// `PTZCommandSlot` per lens, so neither a command nor a ramp's steps ever wait on USB on the serial context, and a
/// slow camera gets the newest position rather than a backlog. What was asked is remembered in the lens's settings
/// at once, so a camera that reopens (re-plug, watchdog, cold switch) is moved back there.
extension DeviceHub {
    /// The PTZ camera serving `lens` now, if its camera has any PTZ axis.
    public func ptzCamera(lens: String) -> (any CameraPTZ)? {
        guard let camera = cameras[lens] as? any CameraPTZ, !camera.ptzRanges.isEmpty else { return nil }
        return camera
    }

    /// Where `lens`'s camera stands as far as PauseCam knows: what it was last given this session, else what the
    /// camera held when it opened (or its default), axis by axis.
    public func ptzPosition(lens: String) -> PTZPosition {
        var position = PTZPosition()
        guard let camera = ptzCamera(lens: lens) else { return position }
        for (axis, range) in camera.ptzRanges { position[axis] = range.start }
        return position.updated(with: lensSettings[lens]?.ptz ?? PTZPosition())
    }

    /// Remembers `target` as where `lens`'s camera is going (what a reopened camera gets back). On the serial
    /// context.
    public func rememberPTZ(lens: String, target: PTZPosition) {
        serialContext.assertOnSerialContext()
        lensSettings[lens]?.remember(ptz: target)
    }

    /// Sends `position` (within the camera's ranges) to `lens`'s camera on the device worker; a position still
    /// waiting there is replaced axis by axis. A refusal comes back as a clip warning, once until the camera takes
    /// a value again. On the serial context.
    public func movePTZ(lens: String, to position: PTZPosition) {
        serialContext.assertOnSerialContext()
        guard !position.isEmpty, let camera = ptzCamera(lens: lens) else { return }
        let slot = ptzSlots[lens] ?? PTZCommandSlot()
        ptzSlots[lens] = slot
        guard slot.offer(position) else { return }
        deviceWorker.submit { [weak self, serialContext] in
            guard let next = slot.take() else { return }
            let failure: String?
            do {
                try camera.movePTZ(to: next)
                failure = nil
            } catch {
                failure = "\(error)"
            }
            serialContext.schedule(at: .zero) { [weak self] in self?.ptzMoved(lens: lens, failure: failure) }
        }
    }

    /// A move ran on the device worker: a new failure is reported; a success clears the last one.
    private func ptzMoved(lens: String, failure: String?) {
        guard let failure else {
            ptzFailures[lens] = nil
            return
        }
        guard ptzFailures[lens] != failure else { return }
        ptzFailures[lens] = failure
        report(.clipWarning("lens \(lens): PTZ: \(failure)"))
    }
}
