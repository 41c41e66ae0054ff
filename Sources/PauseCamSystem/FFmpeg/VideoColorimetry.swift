import CFFmpeg
import PauseCamCore

/// A colour standard (matrix, primaries, transfer): BT.601 (SMPTE 170M) or BT.709.
///
/// Every source PauseCam knows is BT.601: JPEG (JFIF) defines its YCbCr with the BT.601 matrix at any size (FFmpeg's
/// `mjpeg` decoder reports `bt470bg` for a 1280x720 JPEG), UVC's default matrix is SMPTE 170M (BT.601), and the
/// virtual lenses paint BT.601. The canvas follows the usual rule instead, the one editors assume whatever a tag
/// says: BT.709 from 720 lines (HD) up, SMPTE 170M below. libswscale keeps the sources' matrix (changing it there goes
/// through RGB: 2.4 ms at 720p to 18 ms at 1080p YUYV per frame), and an HD canvas is then converted in YUV by
/// `YUVMatrixConverter` (a full-range JPEG at the canvas's size by `FullRangePictureConverter`, range and matrix at
/// once); the encoder tags matrix, primaries and transfer with the canvas's standard.
enum VideoColorimetry: Sendable, Hashable {
    /// ITU-R BT.601 as SMPTE 170M (525-line primaries and transfer, the 601 matrix).
    case bt601
    /// ITU-R BT.709 (HD primaries, transfer and matrix).
    case bt709

    /// What every camera and virtual lens frame uses.
    static let sources = VideoColorimetry.bt601

    /// The standard of a canvas (and movie) `height` lines tall: BT.709 from 720 lines (HD) up, BT.601 below.
    init(height: Int) {
        self = height >= 720 ? .bt709 : .bt601
    }

    /// What turns the sources' pixels (as libswscale leaves them) into this standard's, or nil when they already are.
    var converterFromSources: YUVMatrixConverter? {
        switch self {
        case .bt601: return nil
        case .bt709: return .bt601ToBT709
        }
    }

    /// The one pass from a full-range (JPEG, BT.601) picture of the canvas's size to this standard's limited range.
    var fullRangeConverter: FullRangePictureConverter {
        switch self {
        case .bt601: return .jpegToBT601
        case .bt709: return .jpegToBT709
        }
    }

    /// Tags an encoder's `context` limited range in this standard (matrix, primaries, transfer): the tags travel in
    /// the H.264 VUI and the container, so players need not guess from the size.
    func tag(_ context: UnsafeMutablePointer<AVCodecContext>) {
        context.pointee.color_range = ColorRange.limited.ffmpegRange
        context.pointee.colorspace = matrix
        context.pointee.color_primaries = primaries
        context.pointee.color_trc = transfer
    }

    /// libswscale's coefficient table id (`SWS_CS_ITU601`, `SWS_CS_ITU709`), for `sws_getCoefficients`.
    var swsCoefficients: Int32 {
        switch self {
        case .bt601: return SWS_CS_ITU601
        case .bt709: return SWS_CS_ITU709
        }
    }

    /// The matrix tag (`AVCOL_SPC_SMPTE170M`, `AVCOL_SPC_BT709`).
    var matrix: AVColorSpace {
        switch self {
        case .bt601: return AVCOL_SPC_SMPTE170M
        case .bt709: return AVCOL_SPC_BT709
        }
    }

    /// The primaries tag (`AVCOL_PRI_SMPTE170M`, `AVCOL_PRI_BT709`).
    var primaries: AVColorPrimaries {
        switch self {
        case .bt601: return AVCOL_PRI_SMPTE170M
        case .bt709: return AVCOL_PRI_BT709
        }
    }

    /// The transfer tag (`AVCOL_TRC_SMPTE170M`, `AVCOL_TRC_BT709`).
    var transfer: AVColorTransferCharacteristic {
        switch self {
        case .bt601: return AVCOL_TRC_SMPTE170M
        case .bt709: return AVCOL_TRC_BT709
        }
    }
}
