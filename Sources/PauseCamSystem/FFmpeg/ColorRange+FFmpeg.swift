import CFFmpeg
import PauseCamCore

extension ColorRange {
    /// libswscale's range flag: 1 for full ("JPEG") range, 0 for limited.
    var swsRange: Int32 { self == .full ? 1 : 0 }

    /// FFmpeg's range tag (`AVCOL_RANGE_JPEG`, `AVCOL_RANGE_MPEG`).
    var ffmpegRange: AVColorRange { self == .full ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG }
}
