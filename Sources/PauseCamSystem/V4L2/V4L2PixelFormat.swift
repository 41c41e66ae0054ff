import CV4L2

/// A V4L2 pixel format, identified by its four-character code (`V4L2_PIX_FMT_*`).
public struct V4L2PixelFormat: Sendable, Hashable, CustomStringConvertible {
    /// The little-endian fourcc as the kernel stores it in `pixelformat`.
    public var fourcc: UInt32
    public init(fourcc: UInt32) { self.fourcc = fourcc }

    /// Motion-JPEG (`V4L2_PIX_FMT_MJPEG`): compressed, what lets several webcams share one USB bus.
    public static let mjpeg = V4L2PixelFormat(fourcc: pausecam_v4l2_pix_fmt_mjpeg())
    /// JPEG (`V4L2_PIX_FMT_JPEG`): some drivers name their MJPEG stream this way; decoded the same.
    public static let jpeg = V4L2PixelFormat(fourcc: pausecam_v4l2_pix_fmt_jpeg())
    /// Packed YUYV 4:2:2 (`V4L2_PIX_FMT_YUYV`): uncompressed, no decode cost, heavy on USB bandwidth.
    public static let yuyv = V4L2PixelFormat(fourcc: pausecam_v4l2_pix_fmt_yuyv())
    /// Planar YUV 4:2:0, Y then U then V (`V4L2_PIX_FMT_YUV420`, "YU12", also called I420): what the webcam writes
    /// by default, the program's own layout, so a lens at the program's size is copied, not converted.
    public static let yuv420 = V4L2PixelFormat(fourcc: pausecam_v4l2_pix_fmt_yuv420())

    /// Makes a format from its four characters, e.g. "MJPG".
    public init(_ code: String) {
        let bytes = Array(code.utf8.prefix(4)) + Array(repeating: 0x20, count: max(0, 4 - code.utf8.count))
        fourcc = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
    }

    /// True for the formats PauseCam decodes with the MJPEG decoder.
    public var isJPEG: Bool { self == .mjpeg || self == .jpeg }

    /// `V4L2_PIX_FMT_FLAG_BE_FOURCC`: set on the big-endian twin of a format (vivid offers "Y16 " and its BE twin,
    /// "AR15" and "AR15"|BE…); not a character of the code.
    public static let bigEndianFlag: UInt32 = 1 << 31

    /// The four characters, e.g. "MJPG", "YUYV"; a big-endian twin gets "-BE" ("Y16-BE"), as `v4l2-ctl` prints it,
    /// so the flag never shows as an invalid byte in `pausecam devices`.
    public var description: String {
        let code = fourcc & ~Self.bigEndianFlag
        let bytes = (0..<4).map { UInt8((code >> (8 * UInt32($0))) & 0xff) }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return fourcc & Self.bigEndianFlag != 0 ? text + "-BE" : text
    }
}
