import PauseCamCore

/// Every mode a camera offers, read with `VIDIOC_ENUM_FMT`, `ENUM_FRAMESIZES` and `ENUM_FRAMEINTERVALS`.
public enum V4L2FormatCatalog {
    /// Reads the modes of `device`. Formats without sizes (some drivers only answer S_FMT) are left out. An
    /// enumeration is bounded, so a driver that never says "end" cannot hang the caller.
    public static func modes(of device: V4L2Device) throws -> [V4L2Mode] {
        var modes: [V4L2Mode] = []
        for formatIndex in UInt32(0)..<64 {
            guard let format = try device.enumerateFormat(index: formatIndex) else { break }
            for sizeIndex in UInt32(0)..<256 {
                guard let size = try device.enumerateFrameSize(pixelFormat: format.pixelFormat, index: sizeIndex)
                else { break }
                for candidate in size.candidates {
                    var rates: [FrameRate] = []
                    for rateIndex in UInt32(0)..<64 {
                        guard let interval = try device.enumerateFrameInterval(
                            pixelFormat: format.pixelFormat, width: candidate.width, height: candidate.height,
                            index: rateIndex) else { break }
                        rates += interval.candidates
                    }
                    rates.sort { $0.frameDuration < $1.frameDuration }
                    modes.append(V4L2Mode(pixelFormat: format.pixelFormat, width: candidate.width,
                                          height: candidate.height, rates: rates, emulated: format.emulated))
                }
                if case .stepwise = size { break }
            }
        }
        return modes
    }
}
