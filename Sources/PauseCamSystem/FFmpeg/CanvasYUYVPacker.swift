import CFFmpeg
import Foundation
import PauseCamCore

/// Turns program frames into packed YUYV 4:2:2 pictures of one size, what a webcam reader (a browser, a video-call
/// app) takes from a v4l2loopback device. The frame is first fitted onto a yuv420p canvas by `CanvasScaler` (any
/// pipeline format, JPEG decoded, crop, orientation, letterbox: exactly the movie's picture), then libswscale packs
/// the canvas into YUYV in BT.601 limited range, the standard webcam readers assume for YUYV.
///
/// Owns its canvas scaler, its packing `SwsContext` and one canvas frame. Not thread-safe: one packer per thread
/// (the webcam's writer thread).
final class CanvasYUYVPacker {
    /// The picture's size, both even.
    let width: Int
    let height: Int
    /// Bytes of one packed picture: two per pixel.
    var pictureByteCount: Int { width * height * 2 }
    private let canvas: CanvasScaler
    private let packer: OpaquePointer

    /// A packer for `width`×`height` (made even, as the canvas is).
    init(width: Int, height: Int) throws {
        canvas = CanvasScaler(width: width, height: height)
        self.width = canvas.width
        self.height = canvas.height
        let what = "\(canvas.width)x\(canvas.height) yuv420p → yuyv422"
        guard canvas.width >= 2, canvas.height >= 2,
              let made = sws_getContext(Int32(canvas.width), Int32(canvas.height), AV_PIX_FMT_YUV420P,
                                        Int32(canvas.width), Int32(canvas.height), AV_PIX_FMT_YUYV422, SWS_BILINEAR,
                                        nil, nil, nil)
        else { throw FFmpegError("sws_getContext(\(what))", code: pausecam_averror(EINVAL)) }
        do {
            try ScalerContext.setColorspaceDetails(made, from: canvas.colorimetry, range: .limited, to: .bt601,
                                                   range: .limited, what: what)
        } catch {
            sws_freeContext(made)
            throw error
        }
        packer = made
    }

    deinit { sws_freeContext(packer) }

    /// Draws `frame` and packs it into `output`, which holds at least `pictureByteCount` bytes. Throws
    /// `FFmpegError` for a frame that cannot be drawn (a torn JPEG): the caller keeps the previous picture.
    func pack(_ frame: VideoFrame, into output: UnsafeMutableRawBufferPointer) throws {
        precondition(output.count >= pictureByteCount, "a YUYV picture needs width × height × 2 bytes")
        let drawn = try canvas.scale(frame)
        defer { canvas.recycle(drawn) }
        let source = CanvasScaler.planes(of: drawn)
        var sourcePointers: [UnsafePointer<UInt8>?] = source.data.map { UnsafePointer($0) } + [nil]
        var sourceStrides: [Int32] = source.stride.map { Int32($0) } + [0]
        var destinationPointers: [UnsafeMutablePointer<UInt8>?] = [
            output.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, nil,
        ]
        var destinationStrides: [Int32] = [Int32(width * 2), 0, 0, 0]
        let result = sws_scale(packer, &sourcePointers, &sourceStrides, 0, Int32(height), &destinationPointers,
                               &destinationStrides)
        try FFmpegError.check(result, "sws_scale(\(frame.lens) canvas → yuyv422)")
    }
}
