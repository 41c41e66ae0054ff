/// Which code values a frame's Y, Cb and Cr use. A camera's pixels mean nothing without it: the same byte 16 is
/// black in limited range and a dark grey in full range, so a frame carries its range from the camera to the
/// scaler, which converts every source to the movie's limited range (what players expect of H.264).
public enum ColorRange: String, Sendable, Hashable {
    /// Y 16–235, Cb/Cr 16–240 ("TV", "MPEG" range): uncompressed UVC (YUYV), the virtual lenses, every movie
    /// PauseCam writes. FFmpeg's `AVCOL_RANGE_MPEG`.
    case limited
    /// Y, Cb, Cr 0–255 ("PC", "JPEG" range): what JPEG (JFIF) and so MJPEG webcams deliver. FFmpeg's
    /// `AVCOL_RANGE_JPEG`.
    case full
}
