import CFFmpeg
import Foundation
import PauseCamCore

/// Turns program frames into the webcam's pictures of one size: planar I420 (V4L2's "YU12") or packed YUYV 4:2:2,
/// BT.601 limited range, the standard webcam readers assume for both, written into one contiguous buffer (a
/// v4l2loopback device takes one whole picture per `write`).
///
/// A frame that is already the picture — limited range, upright, not zoomed, at the webcam's size and in its layout
/// (yuv420p for I420, yuyv422 for YUYV) — is copied row by row: no conversion, since every source is BT.601 already
/// (`VideoColorimetry.sources`). Every other frame is drawn by `CanvasScaler` on a BT.601 canvas (any pipeline
/// format, JPEG decoded, crop, orientation, letterbox: the movie's picture, in the webcam's colour standard), then
/// copied out (I420) or packed by libswscale with no matrix change (YUYV).
///
/// Owns its canvas scaler and, for YUYV, its packing `SwsContext`. Not thread-safe: one packer per thread (the
/// webcam's writer thread).
final class WebcamPicturePacker {
    /// The two layouts a webcam reader takes from a loopback device.
    enum Layout: Sendable {
        /// Planar Y, U, V at 4:2:0 (`V4L2_PIX_FMT_YUV420`).
        case i420
        /// Packed Y0 U Y1 V at 4:2:2 (`V4L2_PIX_FMT_YUYV`).
        case yuyv
    }

    /// How a picture was made: copied as it was, drawn and converted, or left as it was because the frame is the
    /// one made last (the program repeating a picture: a lens slower than the output, a held or paused slate).
    enum Route: Sendable, Equatable {
        case copied, converted, repeated
    }

    /// The picture's size, both even.
    let width: Int
    let height: Int
    let layout: Layout
    /// Bytes of one picture: 1.5 per pixel for I420, 2 for YUYV.
    var pictureByteCount: Int { layout == .i420 ? width * height * 3 / 2 : width * height * 2 }
    private let canvas: CanvasScaler
    /// yuv420p → yuyv422 at the picture's size; nil for I420.
    private let packer: OpaquePointer?
    /// The frame whose picture the buffer holds, kept so its pixels stay allocated: a frame sharing its planes'
    /// storage is then the same picture (a live array's storage is never another's).
    private var lastFrame: VideoFrame?

    /// A packer for `width`×`height` (made even, as the canvas is) in `layout`.
    init(width: Int, height: Int, layout: Layout) throws {
        canvas = CanvasScaler(width: width, height: height, colorimetry: .bt601)
        self.width = canvas.width
        self.height = canvas.height
        self.layout = layout
        guard canvas.width >= 2, canvas.height >= 2 else {
            throw FFmpegError("webcam picture \(canvas.width)x\(canvas.height)", code: pausecam_averror(EINVAL))
        }
        guard layout == .yuyv else {
            packer = nil
            return
        }
        // Both sides are BT.601 limited range: libswscale only moves and subsamples, no matrix.
        guard let made = sws_getContext(Int32(canvas.width), Int32(canvas.height), AV_PIX_FMT_YUV420P,
                                        Int32(canvas.width), Int32(canvas.height), AV_PIX_FMT_YUYV422, SWS_BILINEAR,
                                        nil, nil, nil)
        else {
            throw FFmpegError("sws_getContext(\(canvas.width)x\(canvas.height) yuv420p → yuyv422)",
                              code: pausecam_averror(EINVAL))
        }
        packer = made
    }

    deinit { if let packer { sws_freeContext(packer) } }

    /// Makes the picture of `frame` in `output`, which holds at least `pictureByteCount` bytes, and says how.
    /// `output` is the same buffer every time (a repeated frame leaves it as it is). Throws `FFmpegError` for a
    /// frame that cannot be drawn (a torn JPEG): the caller keeps the previous picture.
    @discardableResult
    func pack(_ frame: VideoFrame, into output: UnsafeMutableRawBufferPointer) throws -> Route {
        precondition(output.count >= pictureByteCount, "a webcam picture needs pictureByteCount bytes")
        if let lastFrame, Self.samePicture(lastFrame, frame) { return .repeated }
        lastFrame = nil
        let base = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let route = try make(frame, into: base)
        lastFrame = frame
        return route
    }

    /// True when `b` shows what `a` shows: the same planes' storage (not a copy of it), format, size, range, crop and
    /// orientation; only the time differs.
    private static func samePicture(_ a: VideoFrame, _ b: VideoFrame) -> Bool {
        guard a.format == b.format, a.width == b.width, a.height == b.height, a.range == b.range, a.crop == b.crop,
              a.orientation == b.orientation, a.planes.count == b.planes.count else { return false }
        return zip(a.planes, b.planes).allSatisfy { first, second in
            first.stride == second.stride && first.bytes.count == second.bytes.count
                && first.bytes.withUnsafeBufferPointer { one in
                    second.bytes.withUnsafeBufferPointer { other in one.baseAddress == other.baseAddress }
                }
        }
    }

    private func make(_ frame: VideoFrame, into base: UnsafeMutablePointer<UInt8>) throws -> Route {
        if copy(frame, into: base) { return .copied }
        let drawn = try canvas.scale(frame)
        defer { canvas.recycle(drawn) }
        let source = CanvasScaler.planes(of: drawn)
        switch layout {
        case .i420:
            for (index, rows) in planeRows.enumerated() {
                Self.copyRows(from: UnsafePointer(source.data[index]), stride: source.stride[index],
                              to: base + rows.offset, rowBytes: rows.rowBytes, count: rows.count)
            }
        case .yuyv:
            var sourcePointers: [UnsafePointer<UInt8>?] = source.data.map { UnsafePointer($0) } + [nil]
            var sourceStrides: [Int32] = source.stride.map { Int32($0) } + [0]
            var destinationPointers: [UnsafeMutablePointer<UInt8>?] = [base, nil, nil, nil]
            var destinationStrides: [Int32] = [Int32(width * 2), 0, 0, 0]
            let result = sws_scale(packer, &sourcePointers, &sourceStrides, 0, Int32(height), &destinationPointers,
                                   &destinationStrides)
            try FFmpegError.check(result, "sws_scale(\(frame.lens) canvas → yuyv422)")
        }
        return .converted
    }

    /// Where each plane of the picture starts in the buffer, its row length and its number of rows.
    private var planeRows: [(offset: Int, rowBytes: Int, count: Int)] {
        switch layout {
        case .i420:
            let luma = width * height, chroma = luma / 4
            return [(0, width, height), (luma, width / 2, height / 2), (luma + chroma, width / 2, height / 2)]
        case .yuyv:
            return [(0, width * 2, height)]
        }
    }

    /// Copies `frame` into `output` when it already is the picture (limited range, upright, whole, the webcam's
    /// size and layout, planes as large as their strides say); false, touching nothing, otherwise.
    private func copy(_ frame: VideoFrame, into output: UnsafeMutablePointer<UInt8>) -> Bool {
        let wanted: PixelFormat = layout == .i420 ? .yuv420p : .yuyv422
        let whole = PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let rows = planeRows
        guard frame.format == wanted, frame.range == .limited, frame.orientation == .upright,
              frame.crop == nil || frame.crop == whole, frame.width == width, frame.height == height,
              frame.planes.count >= rows.count,
              zip(frame.planes, rows).allSatisfy({ plane, rows in
                  plane.stride >= rows.rowBytes && plane.bytes.count >= plane.stride * (rows.count - 1) + rows.rowBytes
              })
        else { return false }
        for (plane, rows) in zip(frame.planes, rows) {
            plane.bytes.withUnsafeBufferPointer { bytes in
                Self.copyRows(from: bytes.baseAddress!, stride: plane.stride, to: output + rows.offset,
                              rowBytes: rows.rowBytes, count: rows.count)
            }
        }
        return true
    }

    /// `count` rows of `rowBytes` from rows `stride` apart into tightly packed rows: one copy when they already are.
    private static func copyRows(from source: UnsafePointer<UInt8>, stride: Int, to destination: UnsafeMutablePointer<UInt8>,
                                 rowBytes: Int, count: Int) {
        if stride == rowBytes {
            destination.update(from: source, count: rowBytes * count)
            return
        }
        for row in 0..<count {
            (destination + row * rowBytes).update(from: source + row * stride, count: rowBytes)
        }
    }
}
