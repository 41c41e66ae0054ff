import PauseCamCore
import PauseCamSystem

/// The USB bandwidth plan `pausecam check` and `pausecam devices --rig` print under their own report: the rig's
/// camera lenses on the buses sysfs shows (`USBBandwidthCheck`). Buses that cannot be read leave only the buses
/// the cameras themselves name. Empty for a rig without camera lenses.
func usbBandwidthPlanText(rig: Rig, cameras: [CameraDescription]?) -> String {
    USBBandwidthCheck.report(rig: rig, cameras: cameras, buses: (try? UdevUSBTopology.buses()) ?? [])
}
