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
}
