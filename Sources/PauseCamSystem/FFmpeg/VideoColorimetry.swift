import CFFmpeg

/// The colour standard (matrix, primaries, transfer) of a picture: BT.601 for standard definition, BT.709 for HD.
///
/// Every source PauseCam knows is BT.601: JPEG (JFIF) defines its YCbCr with the BT.601 matrix at any size (FFmpeg's
/// `mjpeg` decoder reports `bt470bg` for a 1280x720 JPEG), UVC's default matrix is SMPTE 170M (BT.601), and the
/// virtual lenses paint BT.601. The movie follows the convention players use for untagged video, by size: BT.709
/// from 720 lines up, BT.601 below. The scaler converts between the two, and the encoder tags the result, so no
/// player has to guess.
enum VideoColorimetry: Sendable, Hashable {
    /// ITU-R BT.601 as SMPTE 170M (525-line primaries and transfer, the 601 matrix).
    case bt601
    /// ITU-R BT.709 (HD primaries, transfer and matrix).
    case bt709

    /// What every camera and virtual lens frame uses.
    static let sources = VideoColorimetry.bt601

    /// The standard for a picture `height` lines tall: BT.709 from 720 lines (HD) up, BT.601 below.
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
