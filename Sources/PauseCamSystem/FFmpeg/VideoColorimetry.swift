import CFFmpeg

/// A colour standard (matrix, primaries, transfer): BT.601 (SMPTE 170M) or BT.709.
///
/// Every source PauseCam knows is BT.601: JPEG (JFIF) defines its YCbCr with the BT.601 matrix at any size (FFmpeg's
/// `mjpeg` decoder reports `bt470bg` for a 1280x720 JPEG), UVC's default matrix is SMPTE 170M (BT.601), and the
/// virtual lenses paint BT.601. So the canvas keeps the BT.601 matrix at every size — converting the matrix to
/// BT.709 goes through RGB in this libswscale and cost 2.4 ms (720p) to 18 ms (1080p YUYV) per frame, most of a
/// frame's budget — and the encoder tags exactly that, so no player guesses: matrix SMPTE 170M always; primaries
/// and transfer BT.709 from 720 lines up (what HD cameras' sensors and sRGB-like curves are), SMPTE 170M below.
enum VideoColorimetry: Sendable, Hashable {
    /// ITU-R BT.601 as SMPTE 170M (525-line primaries and transfer, the 601 matrix).
    case bt601
    /// ITU-R BT.709 (HD primaries, transfer and matrix).
    case bt709

    /// What every camera and virtual lens frame uses.
    static let sources = VideoColorimetry.bt601

    /// The canvas's matrix at every size: the sources', so the scaler never converts matrices.
    static let canvas = VideoColorimetry.sources

    /// The primaries and transfer for a picture `height` lines tall: BT.709 from 720 lines (HD) up, BT.601 below.
    init(height: Int) {
        self = height >= 720 ? .bt709 : .bt601
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
