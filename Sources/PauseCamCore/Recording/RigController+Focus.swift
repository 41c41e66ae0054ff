import Foundation

/// `focus at X Y`: a tap on the monitor's program picture becomes focus and exposure for that spot of the lens the
/// picture shows. The point is mapped back through the lens's digital zoom, mirror and turn to the camera's own
/// picture (`TapRegion`); a camera with a region of interest is given that rectangle, one without it gets one-shot
/// autofocus, and a lens with neither says so. Whatever happened is the reply and a `focusAtPoint` event, never
/// silence.
extension RigController {
    /// Carries out `focus at x y`, given at session-clock `time`. The lens is the one whose picture the program
    /// shows (the switcher's, which is what was tapped), at the digital zoom it has at `time`.
    func focus(atX x: Double, y: Double, at time: MediaTime) -> Reply {
        let lens = switcher.activeLens
        let asked = CommandParser.line(for: .focus(.point(x: x, y: y)))
        guard let camera = devices.cameras[lens] else {
            return .failed("lens \(lens) has no camera; nothing to focus (plug one in, or choose another lens)")
        }
        let format = camera.format
        let region = TapRegion.sensorRect(x: x, y: y, sensorWidth: format.width, sensorHeight: format.height,
                                          orientation: rig.lens(named: lens)?.orientation ?? .upright,
                                          digitalZoom: switcher.digitalZoom(at: time))
        let result: FocusAtPointEvent.Result
        var warnings: [String] = []
        do {
            switch try camera.setRegionOfInterest(region) {
            case .set:
                result = .regionOfInterest(region: region, cameraWidth: format.width, cameraHeight: format.height)
            case .unsupported:
                if let controlling = camera as? any CameraControlling {
                    warnings = try controlling.setFocus(.point(x: x, y: y))
                    result = .oneShotAutofocus
                } else {
                    result = .noFocusControl
                }
            }
        } catch {
            result = .failed(reason: "\(error)")
        }
        let event = FocusAtPointEvent(lens: lens, x: x, y: y, result: result)
        notify(.focusAtPoint(event))
        switch result {
        case .regionOfInterest, .oneShotAutofocus:
            let noted = warnings.map { clipWarning("\(asked): \($0)") }.last ?? ""
            return .ok(([event.text] + warnings).joined(separator: "\n") + noted)
        case .noFocusControl:
            return .ok(event.text + clipWarning("\(asked): \(event.text)"))
        case .failed:
            return .failed(event.text + clipWarning("\(asked): \(event.text)"))
        }
    }
}
