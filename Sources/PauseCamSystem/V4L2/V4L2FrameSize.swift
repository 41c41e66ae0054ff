/// One entry of `VIDIOC_ENUM_FRAMESIZES`.
public enum V4L2FrameSize: Sendable, Equatable {
    /// `V4L2_FRMSIZE_TYPE_DISCRETE`: exactly this size (what UVC cameras report).
    case discrete(width: Int, height: Int)
    /// `V4L2_FRMSIZE_TYPE_STEPWISE` / `CONTINUOUS`: any size in the range on the step grid.
    case stepwise(minWidth: Int, maxWidth: Int, widthStep: Int, minHeight: Int, maxHeight: Int, heightStep: Int)

    /// The sizes PauseCam considers: a discrete size itself, or a range's largest and smallest ends.
    public var candidates: [(width: Int, height: Int)] {
        switch self {
        case .discrete(let w, let h): return [(w, h)]
        case .stepwise(let minW, let maxW, _, let minH, let maxH, _): return [(maxW, maxH), (minW, minH)]
        }
    }
}
