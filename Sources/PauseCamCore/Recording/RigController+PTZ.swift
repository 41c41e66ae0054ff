import Foundation

/// A PTZ camera's motors under the lens commands: a zoom preset's `optical:` and `ptz:`, and the optical share of
/// `zoom F` (`LensForZoom` with each lens's `OpticalZoom`). A move with a ramp time is stepped at the output rate —
/// one position per output frame, sent only when a whole unit changed — and every position goes to the camera on
/// the device worker (`DeviceHub.movePTZ`), so the serial context never waits for a motor. A value outside the
/// camera's range is brought into it and said; a lens whose camera has no such control says so. Either note goes
/// into the clip's sidecar.
extension RigController {
    /// A ramp being stepped on one lens's camera, and the last position sent, so an unchanged step sends nothing.
    struct RunningPTZRamp {
        var ramp: PTZRamp
        var sent: PTZPosition
        /// Bumped by every new move on the lens, so the ticks of a replaced ramp end.
        var generation: Int
    }

    /// The optical zoom of each lens with a camera that has `zoom_absolute` and a rig entry with `optical_max:`.
    var optics: [String: OpticalZoom] {
        var optics: [String: OpticalZoom] = [:]
        for lens in rig.lenses {
            guard let factor = lens.opticalMax,
                  let range = devices.ptzCamera(lens: lens.name)?.ptzRanges[.zoom] else { continue }
            optics[lens.name] = OpticalZoom(range: range, maximumFactor: factor)
        }
        return optics
    }

    /// The magnification `lens`'s optics give now (1 for a lens without optical zoom): what `status` multiplies in.
    func opticalFactor(lens: String) -> Double {
        guard let optical = optics[lens], let units = devices.ptzPosition(lens: lens).zoom else { return 1 }
        return optical.factor(atUnits: units)
    }

    /// Moves `lens`'s camera to `target` over `ramp` from session-clock `time`; returns what could not be done as
    /// asked (an axis the camera lacks, a value outside its range), for the reply. The target, within range, is
    /// remembered for the lens at once, so a camera that reopens mid-ramp goes straight there.
    func movePTZ(lens: String, to target: PTZPosition, ramp: MediaTime, at time: MediaTime)
        -> (moved: PTZPosition, warnings: [String]) {
        guard !target.isEmpty else { return (target, []) }
        guard let camera = devices.ptzCamera(lens: lens) else {
            let name = devices.cameras[lens]?.displayName ?? "no camera"
            return (PTZPosition(), ["lens \(lens) (\(name)) has no PTZ control; \(target) not set"])
        }
        let name = devices.cameras[lens]?.displayName ?? lens
        var moved = PTZPosition()
        var warnings: [String] = []
        for axis in PTZAxis.allCases {
            guard let asked = target[axis] else { continue }
            guard let range = camera.ptzRanges[axis] else {
                warnings.append("\(name) has no \(axis.controlName) control; \(asked) not set")
                continue
            }
            let value = range.clamp(asked)
            if value != asked {
                warnings.append("\(axis.controlName) \(asked) is outside \(range.text) on \(name); using \(value)")
            }
            moved[axis] = value
        }
        guard !moved.isEmpty else { return (moved, warnings) }
        let from = devices.ptzPosition(lens: lens)
        devices.rememberPTZ(lens: lens, target: moved)
        let generation = (ptzRamps[lens]?.generation ?? 0) + 1
        let move = PTZRamp(from: from, to: moved, start: time, duration: ramp)
        // A ramp starts where the camera stands: its first step is the first whole unit of movement.
        let standing = ramp > .zero ? move.position(at: time) : PTZPosition()
        ptzRamps[lens] = RunningPTZRamp(ramp: move, sent: standing, generation: generation)
        stepPTZ(lens: lens, generation: generation)
        return (moved, warnings)
    }

    /// Sends the ramp's position now if it changed, then comes back one output frame later until the ramp ends.
    private func stepPTZ(lens: String, generation: Int) {
        guard var running = ptzRamps[lens], running.generation == generation else { return }
        let now = serialContext.clock.now()
        let position = running.ramp.position(at: now)
        if position != running.sent {
            devices.movePTZ(lens: lens, to: position)
            running.sent = position
        }
        guard now < running.ramp.end else {
            ptzRamps[lens] = nil
            return
        }
        ptzRamps[lens] = running
        let controller = WeakSerialContextBound(self, serialContext: serialContext)
        serialContext.schedule(at: now + rig.output.rate.frameDuration) {
            controller.object?.stepPTZ(lens: lens, generation: generation)
        }
    }
}
