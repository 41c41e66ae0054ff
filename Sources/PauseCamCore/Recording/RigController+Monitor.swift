import Foundation

/// What `RigController` tells the live monitor: which lens the program shows and at what digital zoom. (The frames
/// themselves go from each camera's delivery straight to the `MonitorTap`, in `RigController+Devices`.)
///
/// The program is the switcher's: its active lens once a switch has taken effect, and its zoom at the present
/// moment. A zoom ramp moves the crop for a while, so a timer tells its progress as often as the monitor makes
/// program pictures until the ramp ends.
extension RigController {
    /// How often a zoom ramp's progress is told: as often as the monitor may make a program picture.
    static let monitorZoomInterval = MediaTime(value: 1, timescale: 15)

    /// Tells the monitor the program's lens and digital zoom now, when they differ from what it was last told.
    func tellMonitorTheProgram() {
        guard let monitor else { return }
        let now = serialContext.clock.now()
        let program = (lens: switcher.activeLens, digitalZoom: switcher.digitalZoom(at: now))
        if let told = monitorProgram, told.lens == program.lens, told.digitalZoom == program.digitalZoom { return }
        monitorProgram = program
        monitor.programChanged(lens: program.lens, digitalZoom: program.digitalZoom)
    }

    /// Tells the monitor the program now and, while a zoom ramp runs, every `monitorZoomInterval` until it ends
    /// (one timer however many zoom commands come meanwhile).
    func followProgramOnMonitor() {
        guard monitor != nil else { return }
        tellMonitorTheProgram()
        guard !monitorFollowsZoomRamp, isZoomRamping else { return }
        monitorFollowsZoomRamp = true
        scheduleMonitorZoomTick()
    }

    /// True while the digital zoom has not reached its target.
    private var isZoomRamping: Bool {
        abs(switcher.digitalZoom(at: serialContext.clock.now()) - switcher.targetZoom) > 1e-9
    }

    private func scheduleMonitorZoomTick() {
        let controller = WeakSerialContextBound(self, serialContext: serialContext)
        serialContext.schedule(at: serialContext.clock.now() + Self.monitorZoomInterval) {
            guard let self = controller.object else { return }
            self.tellMonitorTheProgram()
            guard self.isZoomRamping else {
                self.monitorFollowsZoomRamp = false
                return
            }
            self.scheduleMonitorZoomTick()
        }
    }
}
