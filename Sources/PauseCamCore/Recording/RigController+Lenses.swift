import Foundation

/// The lens commands of `RigController`: `lens`, `zoom`, `exposure`, `focus`, and where a control's warning goes.
/// Kept apart from the controller's dispatch and wiring; they act through the `LensBank` and the `Switcher`.
extension RigController {
    func lens(_ choice: Command.LensChoice, at time: MediaTime) -> Reply {
        let target: String
        switch choice {
        case .named(let name):
            guard rig.lens(named: name) != nil else {
                return .failed("no lens \"\(name)\"\(SpellingSuggestion.clause(for: name, in: rig.lenses.map(\.name))); "
                               + "lenses: \(rig.lenses.map(\.name).joined(separator: ", "))")
            }
            target = name
        case .next:
            let order = rig.lenses.map(\.name).filter { devices.cameras[$0] != nil }
            guard let index = order.firstIndex(of: bank.activeLens), order.count > 1 else {
                guard let first = order.first else { return .failed("no lens has a camera") }
                target = first
                break
            }
            target = order[(index + 1) % order.count]
        }
        if let rejection = select(target, at: time) { return .failed(rejection) }
        if switcher.targetZoom > 1 { switcher.zoom(to: 1, ramp: .zero, at: time) }
        followProgramOnMonitor()
        return .ok("lens \(target)")
    }

    func zoom(_ choice: Command.ZoomChoice, at time: MediaTime) -> Reply {
        let lensName: String
        let digital: Double
        let ramp: MediaTime
        var note: String?
        var requestedTotal: Double?
        var ptz = PTZPosition()
        switch choice {
        case .preset(let name):
            guard let preset = rig.zoomPreset(named: name) else {
                if let factor = ZoomFactor.parse(name) { return zoom(.factor(factor), at: time) }
                let names = rig.zoomPresets.map(\.name)
                return .failed("no zoom preset \"\(name)\"\(SpellingSuggestion.clause(for: name, in: names)); "
                               + "presets: \(names.joined(separator: ", "))")
            }
            guard preset.digital <= rig.maxDigitalZoom + 1e-9 else {
                return .failed("zoom preset \"\(name)\" asks for \(ZoomFactor.text(preset.digital)) digital zoom, beyond "
                               + "this rig's limit of \(ZoomFactor.text(rig.maxDigitalZoom)) (max_digital_zoom)")
            }
            (lensName, digital, ramp, ptz) = (preset.lens, preset.digital, preset.ramp, preset.ptz)
        case .factor(let factor):
            guard factor > 0, factor.isFinite else { return .failed("a zoom factor is a positive number, like 1.5") }
            switch LensForZoom.choose(factor: factor, lenses: rig.lenses.filter { devices.cameras[$0.name] != nil },
                                      maxDigitalZoom: rig.maxDigitalZoom, optics: optics) {
            case .failure(let refusal):
                let missing = camerasMissing(nearer: factor, than: nil)
                return .failed(refusal.message + (missing.isEmpty ? "" : "; \(missing)"))
            case .success(let choice):
                (lensName, digital, ramp, note) = (choice.lens, choice.digital, .zero, choice.note)
                ptz.zoom = choice.optical
                let chosenZoom = rig.lens(named: choice.lens)?.zoom ?? 1
                let missing = camerasMissing(nearer: factor, than: chosenZoom)
                if choice.note == nil {
                    requestedTotal = factor
                    if !missing.isEmpty {
                        note = zoomText(total: factor, lens: choice.lens, lensZoom: chosenZoom, moved: "",
                                        digital: choice.digital) + " (\(missing))"
                    }
                } else if !missing.isEmpty {
                    // Wider lenses exist but have no camera: that, not the rig, is why the factor is not met.
                    note = "zoom \(ZoomFactor.text(factor)) not met: \(missing); using "
                        + zoomText(total: chosenZoom * choice.digital, lens: choice.lens, lensZoom: chosenZoom,
                                   moved: "", digital: choice.digital)
                }
            }
        }
        let changesLens = lensName != bank.activeLens
        if let rejection = select(lensName, at: time) { return .failed(rejection) }
        if changesLens { switcher.zoom(to: 1, ramp: .zero, at: time) }
        switcher.zoom(to: digital, ramp: ramp, at: time)
        let camera = movePTZ(lens: lensName, to: ptz, ramp: ramp, at: time)
        followProgramOnMonitor()
        let warnings = camera.warnings.map { "warning: \($0)" + clipWarning("\(CommandParser.line(for: .zoom(choice))): \($0)") }
        // The lens's zoom with its camera's optics where they moved, as `status` counts it.
        let lensZoom = (rig.lens(named: lensName)?.zoom ?? 1) * opticalFactor(lens: lensName)
        let said = note ?? zoomText(total: requestedTotal ?? lensZoom * digital, lens: lensName, lensZoom: lensZoom,
                                    moved: camera.moved.isEmpty ? "" : "\(camera.moved)", digital: digital)
        return .ok(([said] + warnings).joined(separator: "\n"))
    }

    /// "zoom 4x = standin 2x × digital 2x": the zoom in effect and its parts (the lens, its camera's optical
    /// position when it moved, the digital crop), so no part passes for the whole.
    func zoomText(total: Double, lens: String, lensZoom: Double, moved: String, digital: Double) -> String {
        "zoom \(ZoomFactor.text(total)) = \(lens) \(ZoomFactor.text(lensZoom))" + (moved.isEmpty ? "" : " (\(moved))")
            + (digital > 1.0001 ? " × digital \(ZoomFactor.text(digital))" : "")
    }

    /// "lenses wide (0.5x) and main (1x) have no camera": the rig's lenses at or below `factor` that would have
    /// served it better than the chosen lens (`chosenZoom`; `nil` when none was chosen) but were passed over for
    /// want of a camera; empty when there are none.
    private func camerasMissing(nearer factor: Double, than chosenZoom: Double?) -> String {
        let tolerance = 1e-9
        let missing = rig.lenses.filter { lens in
            guard devices.cameras[lens.name] == nil, lens.zoom <= factor + tolerance else { return false }
            guard let chosenZoom, chosenZoom <= factor + tolerance else { return true }
            return lens.zoom > chosenZoom + tolerance
        }
        guard !missing.isEmpty else { return "" }
        let names = missing.map { "\($0.name) (\(ZoomFactor.text($0.zoom)))" }
        return (missing.count == 1 ? "lens \(names[0]) has" : "lenses \(names.joined(separator: " and ")) have")
            + " no camera"
    }

    /// Makes `lens` the active lens through the bank: at once when it delivers frames (or no clip waits for
    /// them), else when its first frame comes; returns why not, if it cannot be.
    func select(_ lens: String, at time: MediaTime) -> String? {
        perform(bank.handle(.select(lens: lens, at: time, recording: clips.recorder != nil))).first
    }

    func exposure(_ choice: Command.ExposureChoice) -> Reply {
        let setting: Rig.ExposurePreset.Setting
        switch choice {
        case .auto: setting = .auto
        case .bias(let ev): setting = .bias(ev)
        case .preset(let name):
            guard let preset = rig.exposurePreset(named: name) else {
                let names = rig.exposurePresets.map(\.name)
                return .failed("no exposure preset \"\(name)\"\(SpellingSuggestion.clause(for: name, in: names)); "
                               + "presets: \(names.joined(separator: ", "))")
            }
            setting = preset.setting
        }
        return control("exposure", asked: .exposure(choice)) { try $0.setExposure(setting) }
    }

    func focus(_ choice: Command.FocusChoice) -> Reply {
        control("focus", asked: .focus(choice)) { try $0.setFocus(choice) }
    }

    /// Applies a camera control on the active lens; a camera without controls (a virtual lens) is told so, and
    /// nothing else changes. Either way, what could not be done goes into the clip's sidecar as a warning (the
    /// next clip's, when none is recording), so the sidecar never implies a setting the picture does not have.
    private func control(_ what: String, asked command: Command,
                         _ apply: (any CameraControlling) throws -> [String]) -> Reply {
        let lens = bank.activeLens
        let asked = CommandParser.line(for: command)
        guard let camera = devices.cameras[lens] as? any CameraControlling else {
            let message = "lens \(lens) (\(devices.cameras[lens]?.displayName ?? "no camera")) has no \(what) control; nothing changed"
            return .ok(message + clipWarning("\(asked): \(message)"))
        }
        do {
            let warnings = try apply(camera)
            // Kept for the lens: its camera gets it back whenever it opens again (re-plug, cold switch, watchdog).
            devices.remember(command, lens: lens)
            let noted = warnings.map { clipWarning("\(asked): \($0)") }.last ?? ""
            return .ok((["\(what) set on lens \(lens)"] + warnings).joined(separator: "\n") + noted)
        } catch {
            let message = "\(what) on lens \(lens): \(error)"
            return .failed(message + clipWarning("\(asked): \(message)"))
        }
    }

    /// Puts `warning` into the sidecar of the clip recording now, or of the next clip when none is; returns the
    /// words the reply adds to say where it went.
    func clipWarning(_ warning: String) -> String {
        switch clips.note(warning) {
        case .clip: return " (noted in the clip's sidecar)"
        case .nextClip: return " (noted in the next clip's sidecar)"
        case .nowhere: return ""
        }
    }
}
