/// What to tell a user whose camera cannot deliver the movie's frame rate in the mode it was given.
///
/// The output clock repeats frames of a slower lens, so the movie stays constant-rate, but motion stutters: a
/// camera at 15 fps in a 30 fps movie shows every picture twice. The usual causes on UVC cameras are uncompressed
/// YUYV at a large size over USB 2.0 (about 5 fps at 1080p) and auto exposure lowering the rate in low light.
public enum CameraRateAdvice {
    /// A warning when `delivered` is slower than `output`, naming the lens, the camera's mode and the fix; `nil`
    /// when the camera keeps up. `format` is the lens's `format:` as the rig asked for it.
    /// `asked` is the lens's own `fps:`, when it names one.
    public static func warning(lens: String, camera: String, delivered: CameraFormat, output: FrameRate,
                               format: Rig.Lens.CaptureFormat, asked: FrameRate? = nil) -> String? {
        // Slower means a longer frame duration (exact: no Double).
        guard delivered.rate.frameDuration > output.frameDuration else { return nil }
        var fixes: [String] = []
        if let asked, asked.frameDuration > output.frameDuration {
            // The rig itself asked for the slower rate: that is the first thing to change.
            fixes.append("removing the lens's `fps: \(asked)`")
        }
        if delivered.pixelFormat == .yuyv422 && format != .mjpeg { fixes.append("`format: mjpeg`") }
        fixes.append("a smaller `size`")
        return "lens \(lens): \(camera) delivers \(delivered.rate) fps at \(delivered.width)x\(delivered.height), "
            + "slower than the movie's \(output) fps: its frames will be repeated (motion stutters); "
            + fixes.joined(separator: " or ") + " lets it keep up"
    }
}
