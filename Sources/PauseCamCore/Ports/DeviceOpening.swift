/// Opens the devices that hot-plug watchers report: V4L2 cameras and ALSA microphones in the program, fakes in
/// tests. The `DeviceHub` decides whether a plugged-in device is wanted and what it serves; this only opens it.
public protocol DeviceOpening: Sendable {
    /// Opens the camera at `identity` for `lens` (the rig's lens it matched). Called on the watcher's thread,
    /// never on the serial context: opening a camera takes a while.
    func openCamera(_ identity: CameraIdentity, for lens: Rig.Lens) throws -> any Camera

    /// Opens the microphone on a plugged-in sound `card` off the serial context, if the card is the one the rig's
    /// `audio` names (`lensNode` is the device node of the lens whose camera the rule names, for `audio: lens`),
    /// and calls `opened` with it; calls nothing when the card is not the rig's or cannot be opened (it says why
    /// itself). May retry while the card's PCM appears.
    func openMicrophone(on card: MicrophoneIdentity, lensNode: String?,
                        opened: @escaping @Sendable (any Microphone) -> Void)

    /// Closes `camera` (already stopped) and opens the device at `node` again for `lens`: the freeze watchdog's
    /// last resort for a camera that streams but sends nothing. Called on the device worker.
    func reopenCamera(_ camera: any Camera, node: String, for lens: Rig.Lens) throws -> any Camera

    /// `openMicrophone` for a card of a rig of voices: opens `card` if `device` (the card's voices' source) picks
    /// it, with at least `channels` channels, and calls `opened`; calls nothing otherwise.
    func openVoiceMicrophone(on card: MicrophoneIdentity, device: Rig.AudioInput.Device, lensNode: String?,
                             channels: Int, opened: @escaping @Sendable (any Microphone) -> Void)
}

extension DeviceOpening {
    /// An opener without voice cards (tests' fakes) opens none.
    public func openVoiceMicrophone(on card: MicrophoneIdentity, device: Rig.AudioInput.Device, lensNode: String?,
                                    channels: Int, opened: @escaping @Sendable (any Microphone) -> Void) {}

    /// Opens the node again as if it had been plugged in; an opener whose cameras hold a device open closes it
    /// first (the program's does).
    public func reopenCamera(_ camera: any Camera, node: String, for lens: Rig.Lens) throws -> any Camera {
        try openCamera(CameraIdentity(devicePath: node, name: camera.displayName), for: lens)
    }
}
