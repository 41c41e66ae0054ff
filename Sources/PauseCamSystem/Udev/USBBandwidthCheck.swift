import PauseCamCore

/// The USB bandwidth plan of a rig on this machine, for `pausecam check` and `pausecam devices --rig`: each camera
/// lens placed where sysfs says its camera sits (or where its `usb_port:` declares, when the camera is absent),
/// streaming the mode a session would choose (`V4L2FormatChooser`, as `V4L2RateCheck` does), planned by
/// `USBBandwidthPlanner` against every bus present. Nothing streams: the plan is made from what the cameras list.
public enum USBBandwidthCheck {
    /// The planner's inputs: the camera lenses with a known place and mode, and those left out with the reason.
    /// `format: auto` lenses are planned in the format `USBFormatAutoResolution` chooses on `buses`.
    public static func loads(rig: Rig, cameras: [CameraDescription], match: CameraMatcher.Result?,
                             buses: [USBBus] = [])
        -> (loads: [USBCameraLoad], unplanned: [USBBandwidthReport.Unplanned]) {
        let rig = USBFormatAutoResolution.resolve(rig, with: USBFormatAutoResolution.choices(
            rig: rig, cameras: cameras, match: match, buses: buses))
        var loads: [USBCameraLoad] = []
        var unplanned: [USBBandwidthReport.Unplanned] = []
        for lens in rig.lenses {
            guard case .camera = lens.source else { continue }
            let camera = match?.camera(for: lens.name).flatMap { identity in
                cameras.first { $0.identity == identity }
            }
            if let camera {
                guard let placement = camera.usbPlacement else {
                    unplanned.append(.init(lens: lens.name, reason: "\(camera.identity.devicePath) is not on USB"))
                    continue
                }
                if !camera.modes.isEmpty {
                    do {
                        let choice = try V4L2FormatChooser.choose(format: lens.format, width: lens.width,
                                                                  height: lens.height,
                                                                  rate: lens.rate ?? rig.output.rate,
                                                                  from: camera.modes,
                                                                  device: camera.identity.devicePath)
                        let mode = USBStreamMode(encoding: choice.pixelFormat.isJPEG ? .mjpeg : .yuyv,
                                                 width: choice.width, height: choice.height,
                                                 rate: choice.rate ?? lens.rate ?? rig.output.rate)
                        loads.append(USBCameraLoad(lens: lens.name, placement: placement, mode: mode))
                    } catch {
                        unplanned.append(.init(lens: lens.name, reason: "\(error)"))
                    }
                    continue
                }
                // The camera lists no modes (it could not be opened): plan the mode the lens asks for.
                loads.append(USBCameraLoad(lens: lens.name, placement: placement, mode: declaredMode(lens, rig)))
            } else if let declared = lens.usbPort {
                loads.append(USBCameraLoad(lens: lens.name, placement: declared, mode: declaredMode(lens, rig)))
            } else {
                unplanned.append(.init(lens: lens.name,
                                       reason: "not connected; `usb_port:` declares where it sits for the plan"))
            }
        }
        return (loads, unplanned)
    }

    /// The mode a lens asks for when no camera says what it offers: its `format:` (`any` and an unresolved `auto`
    /// count as MJPEG, which a session prefers), its `size:` or else the movie's, its `fps:` or else the movie's.
    static func declaredMode(_ lens: Rig.Lens, _ rig: Rig) -> USBStreamMode {
        USBStreamMode(encoding: lens.format == .yuyv ? .yuyv : .mjpeg, width: lens.width ?? rig.output.width,
                      height: lens.height ?? rig.output.height, rate: lens.rate ?? rig.output.rate)
    }

    /// The report `pausecam check` and `pausecam devices --rig` print: empty for a rig without camera lenses.
    /// `cameras` is `nil` when udev could not be read; `buses` are the USB buses present (empty when unknown).
    public static func report(rig: Rig, cameras: [CameraDescription]?, buses: [USBBus]) -> String {
        guard rig.lenses.contains(where: { if case .camera = $0.source { return true } else { return false } }) else {
            return ""
        }
        let described = cameras ?? []
        let match = try? CameraMatcher.match(described.map(\.identity), to: rig.lenses)
        let (loads, unplanned) = self.loads(rig: rig, cameras: described, match: match, buses: buses)
        let (plan, standbyChoices) = self.plan(loads, buses: buses, standby: rig.standby)
        let choices = USBFormatAutoResolution.choices(rig: rig, cameras: described, match: match, buses: buses)
        return USBBandwidthReport.text(of: plan, unplanned: unplanned, standby: rig.standby, formatChoices: choices,
                                       standbyChoices: standbyChoices)
    }

    /// The plan under the rig's standby. With `standby: auto` each bus is planned hot when it carries all its
    /// camera lenses at once and cold otherwise, as `USBStandbyAutoChoice` decides, and the choices are returned.
    public static func plan(_ loads: [USBCameraLoad], buses: [USBBus], standby: Rig.Standby)
        -> (plan: USBBandwidthPlan, standbyChoices: [USBStandbyAutoChoice.Choice]) {
        guard standby == .auto else { return (USBBandwidthPlanner.plan(loads, buses: buses, standby: standby), []) }
        let hot = USBBandwidthPlanner.plan(loads, buses: buses, standby: .hot)
        let choices = USBStandbyAutoChoice.choose(hotPlan: hot)
        let cold = Set(choices.filter { $0.standby == .cold }.map(\.lens))
        let coldPlan = USBBandwidthPlanner.plan(loads, buses: buses, standby: .cold)
        var merged = hot
        merged.buses = hot.buses.map { bus in
            guard bus.shares.contains(where: { cold.contains($0.load.lens) }) else { return bus }
            return coldPlan.buses.first { $0.bus.number == bus.bus.number } ?? bus
        }
        return (merged, choices)
    }

    /// The USB bus each camera lens's connected camera sits on, in words ("bus 1 (USB 2.0 high speed, controller
    /// 0000:00:14.0)"), for the `DeviceHub`'s bandwidth fallback: lenses with the same words share a budget.
    /// Lenses without a camera, and cameras not on USB, are left out.
    public static func lensBuses(rig: Rig, cameras: [CameraDescription], buses: [USBBus]) -> [String: String] {
        guard let match = try? CameraMatcher.match(cameras.map(\.identity), to: rig.lenses) else { return [:] }
        var places: [String: String] = [:]
        for lens in rig.lenses {
            guard let identity = match.camera(for: lens.name),
                  let placement = cameras.first(where: { $0.identity == identity })?.usbPlacement else { continue }
            places[lens.name] = (buses.first { $0.number == placement.bus }
                ?? USBBus(number: placement.bus, speed: placement.speed)).description
        }
        return places
    }

    /// With `standby: auto`, the camera lenses that stay cold on this machine (for `Rig.autoColdLenses`), with
    /// every choice for the session's log; empty choices for any other standby.
    public static func autoStandby(rig: Rig, cameras: [CameraDescription], buses: [USBBus])
        -> [USBStandbyAutoChoice.Choice] {
        guard rig.standby == .auto else { return [] }
        let match = try? CameraMatcher.match(cameras.map(\.identity), to: rig.lenses)
        return plan(loads(rig: rig, cameras: cameras, match: match, buses: buses).loads, buses: buses,
                    standby: .auto).standbyChoices
    }
}
