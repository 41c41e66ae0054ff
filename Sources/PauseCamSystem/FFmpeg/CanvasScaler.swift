import CFFmpeg
import Foundation
import PauseCamCore

/// Fits any camera frame onto the movie's canvas: converts its pixel format to yuv420p with libswscale, scales
/// only its crop rectangle (digital zoom), and letterboxes or pillarboxes a different aspect with black bars, never
/// stretching. Lenses of different sizes can therefore share one movie.
///
/// Levels: the canvas is limited range in its size's colour standard (`VideoColorimetry(height:)`; libswscale keeps
/// the sources' BT.601 matrix and `YUVMatrixConverter` turns an HD picture into BT.709 in place). Each
/// frame is converted from its own range (full for MJPEG, limited otherwise), so an MJPEG lens and a YUYV lens show
/// the same black, white and colours, and the encoder's tags are true. Two pictures skip libswscale: a limited
/// yuv420p one of the drawn size (one matrix pass copies it), and in optimized builds a full-range JPEG of the drawn
/// size (`FullRangePictureConverter`: range, chroma and matrix in one pass, under half libswscale's time).
///
/// A lens turned or mirrored (`VideoFrame.orientation`) is oriented first, by an exact copy of its samples, and
/// then fitted like any picture of its new aspect (a quarter turn of a landscape camera pillarboxes it in a
/// landscape canvas and fills a portrait one).
///
/// Compressed frames (`PixelFormat.jpeg`, from MJPEG cameras and files) are decoded here, on the thread that scales
/// them (the writer's encoder thread, or the thumbnail worker), so only frames that reach the movie are ever decoded
/// and the controller's serial context never decodes. The last decoded JPEG is kept, so a picture the output clock
/// repeats is decoded once.
///
/// Owns a few `SwsContext`s, cached per source size, pixel format, range and target size (the most recent
/// `cacheLimit`), so switching back and forth between two lenses builds nothing. Not thread-safe: one scaler per
/// thread.
final class CanvasScaler {
    let width: Int
    let height: Int
    /// The canvas's colour standard, decided by its height; the encoder tags the movie with the same.
    let colorimetry: VideoColorimetry
    /// Contexts built so far, most recently used first.
    private(set) var contexts: [ScalerContext] = []
    /// How many contexts to keep: a rig's lenses at a zoom or two, without growing while a zoom changes.
    static let cacheLimit = 4
    /// The JPEG decoder, made at the first compressed frame (a rig without MJPEG never opens one).
    private var jpegDecoder: MJPEGDecoder?
    /// The last JPEG decoded (its lens, capture time and size in bytes) and its picture.
    private var lastDecoded: (lens: String, pts: MediaTime, byteCount: Int, picture: DecodedPicture)?
    /// Told of each JPEG decoded and each canvas allocated (a test's view); `nil` in the program.
    private let hooks: (any SystemHooks)?
    /// Whether a full-range planar picture (a decoded JPEG) of the canvas's size is drawn by
    /// `FullRangePictureConverter`'s one pass instead of libswscale and the matrix pass: in optimized builds (see
    /// `FullRangePictureConverter.isDefault`); tests set it to compare the two.
    var drawsFullRangeInOnePass = FullRangePictureConverter.isDefault

    /// A canvas of `width`×`height`; both are made even (4:2:0 chroma needs it). `colorimetry` is the canvas's
    /// standard: by default the movie's rule for its height; the webcam asks for BT.601, what its readers assume.
    init(width: Int, height: Int, hooks: (any SystemHooks)? = nil, colorimetry: VideoColorimetry? = nil) {
        self.hooks = hooks
        self.width = width & ~1
        self.height = height & ~1
        self.colorimetry = colorimetry ?? VideoColorimetry(height: self.height)
    }

    /// The context for `key`, built on first use and moved to the front of the cache.
    func context(for key: ScalerContext.Key) throws -> ScalerContext {
        if let index = contexts.firstIndex(where: { $0.key == key }) {
            let found = contexts.remove(at: index)
            contexts.insert(found, at: 0)
            return found
        }
        let made = try ScalerContext(key, output: .sources)
        contexts.insert(made, at: 0)
        if contexts.count > Self.cacheLimit { contexts.removeLast() }
        return made
    }

    /// Where a source of `sourceWidth`×`sourceHeight` lands on the canvas: the largest centred rectangle with the
    /// source's aspect, with even origin and size.
    func placement(sourceWidth: Int, sourceHeight: Int) -> PixelRect {
        guard sourceWidth > 0, sourceHeight > 0 else { return PixelRect(x: 0, y: 0, width: width, height: height) }
        var w = width, h = height
        if sourceWidth * height > width * sourceHeight {
            h = (width * sourceHeight + sourceWidth / 2) / sourceWidth
        } else {
            w = (height * sourceWidth + sourceHeight / 2) / sourceHeight
        }
        w = max(2, w & ~1)
        h = max(2, h & ~1)
        return PixelRect(x: ((width - w) / 2) & ~1, y: ((height - h) / 2) & ~1, width: w, height: h)
    }

    /// Canvas frames handed back by `recycle`, reused by `scale` so a recording allocates (and the kernel zeroes
    /// and faults in) no new 3 MB picture per frame. Guarded: `recycle` may come from another thread (the encoding
    /// pipeline's x264 worker) than `scale`.
    private let spareCanvases = Guarded(SpareCanvases())
    /// The canvases waiting to be drawn over.
    /// Unchecked Sendable: under lock. Raw frames that the list alone holds, reached only inside `spareCanvases`;
    /// `recycle`'s caller keeps no reference to the canvas it hands back, and `scale` owns the one it takes out.
    private struct SpareCanvases: @unchecked Sendable {
        var frames: [UnsafeMutablePointer<AVFrame>] = []
    }
    /// How many spare canvases to keep: the canvases drawn and waiting for x264, the one x264 holds for repeats and
    /// the one being drawn.
    static let spareLimit = EncodingPipeline.picturesInFlight + 2

    /// The oriented copy of the picture being drawn, for lenses that are turned or mirrored; `nil` until one is.
    private var orientedPicture: UnsafeMutableRawBufferPointer?

    deinit {
        spareCanvases.withLock { $0.frames.forEach(FFmpegFrame.release) }
        orientedPicture?.deallocate()
    }

    /// A yuv420p canvas frame holding `frame`; the caller owns it and ends it with `recycle` (or `av_frame_free`).
    /// A recycled canvas whose buffers nobody else references (libx264 copies each picture it is given, so the
    /// encoder holds no reference once `avcodec_send_frame` has returned) is drawn over; otherwise a new one is made.
    func scale(_ frame: VideoFrame) throws -> UnsafeMutablePointer<AVFrame> {
        while let spare = takeSpare() {
            guard av_frame_is_writable(spare) != 0 else {
                FFmpegFrame.release(spare)
                continue
            }
            do {
                try draw(frame, into: spare)
            } catch {
                recycle(spare)
                throw error
            }
            return spare
        }
        return try newCanvas(holding: frame)
    }

    private func takeSpare() -> UnsafeMutablePointer<AVFrame>? {
        spareCanvases.withLock { $0.frames.popLast() }
    }

    /// Takes back a canvas from `scale` for reuse (beyond `spareLimit` it is freed). Any thread.
    func recycle(_ canvas: UnsafeMutablePointer<AVFrame>) {
        let kept = spareCanvases.withLock { spare in
            guard spare.frames.count < Self.spareLimit else { return false }
            spare.frames.append(canvas)
            return true
        }
        if !kept { FFmpegFrame.release(canvas) }
    }

    /// A newly allocated canvas frame holding `frame`; the caller owns it.
    private func newCanvas(holding frame: VideoFrame) throws -> UnsafeMutablePointer<AVFrame> {
        let output = try FFmpegFrame.allocate("canvas")
        hooks?.didAllocateCanvas()
        output.pointee.width = Int32(width)
        output.pointee.height = Int32(height)
        output.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        output.pointee.color_range = ColorRange.limited.ffmpegRange
        output.pointee.colorspace = colorimetry.matrix
        output.pointee.color_primaries = colorimetry.primaries
        output.pointee.color_trc = colorimetry.transfer
        do {
            try FFmpegError.check(av_frame_get_buffer(output, 0), "av_frame_get_buffer(canvas \(width)x\(height))")
            try draw(frame, into: output)
        } catch {
            FFmpegFrame.release(output)
            throw error
        }
        return output
    }

    /// The decoded picture of a compressed `frame`, left in libavcodec's buffers (the last one is kept, so a
    /// repeated frame is decoded once; while the monitor is watched, `DecodedPictureShare` lets the monitor's
    /// program picture and the movie decode it once between them). Throws `FFmpegError` for a JPEG that does not
    /// decode (a torn USB transfer): the caller decides whether to repeat the previous picture.
    func decompressed(_ frame: VideoFrame) throws -> DecodedPicture {
        let byteCount = frame.planes.first?.bytes.count ?? 0
        if let last = lastDecoded, last.lens == frame.lens, last.pts == frame.pts, last.byteCount == byteCount {
            return last.picture
        }
        if jpegDecoder == nil { jpegDecoder = try MJPEGDecoder() }
        guard let bytes = frame.planes.first?.bytes,
              let picture = try DecodedPictureShare.shared.picture(DecodedPictureShare.Key(lens: frame.lens, bytes: bytes),
                                                                   publish: false, decode: {
                                                                       hooks?.didDecodeJPEG()
                                                                       return try jpegDecoder!.decodePicture(bytes)
                                                                   })
        else {
            throw FFmpegError("mjpeg decoder: no picture in \(frame.lens)'s \(byteCount)-byte JPEG",
                              code: pausecam_averror(EINVAL))
        }
        lastDecoded = (frame.lens, frame.pts, byteCount, picture)
        return picture
    }

    /// A picture's pixels for one draw, wherever they live: a frame's own arrays, or a decoded JPEG in libavcodec's
    /// buffers (drawn from there, not copied out first).
    struct SourcePlanes {
        var width: Int, height: Int
        var format: PixelFormat, range: ColorRange
        var bases: [UnsafePointer<UInt8>?]
        var strides: [Int]
    }

    /// Draws `frame` into an existing yuv420p canvas-sized `output`, decoding it first when it is compressed.
    func draw(_ frame: VideoFrame, into output: UnsafeMutablePointer<AVFrame>) throws {
        if frame.format.isCompressed {
            let picture = try decompressed(frame)
            let source = SourcePlanes(width: picture.width, height: picture.height, format: picture.format,
                                      range: picture.range, bases: picture.bases, strides: picture.strides)
            return try withExtendedLifetime(picture) {
                try draw(source, orientation: frame.orientation, crop: frame.crop, lens: frame.lens, into: output)
            }
        }
        let (_, planeCount) = Self.ffmpegFormat(frame.format)
        guard frame.planes.count >= planeCount else {
            throw FFmpegError("sws_scale(\(frame.format.rawValue) frame with \(frame.planes.count) planes)",
                              code: pausecam_averror(EINVAL))
        }
        let planes = Array(frame.planes.prefix(planeCount))
        try Self.withBaseAddresses(planes) { bases in
            try draw(SourcePlanes(width: frame.width, height: frame.height, format: frame.format, range: frame.range,
                                  bases: bases, strides: planes.map(\.stride)),
                     orientation: frame.orientation, crop: frame.crop, lens: frame.lens, into: output)
        }
    }

    /// Draws `source` turned and mirrored as `orientation` says: an upright picture as it is, any other first copied
    /// oriented (`OrientingCopier`) into the scaler's own buffer, whose picture is then drawn like any other (the
    /// crop is a rectangle of the oriented picture). Only a lens that asks for it pays that copy.
    private func draw(_ source: SourcePlanes, orientation: PictureOrientation, crop: PixelRect?, lens: String,
                      into output: UnsafeMutablePointer<AVFrame>) throws {
        guard !orientation.isUpright else { return try draw(source, crop: crop, lens: lens, into: output) }
        guard OrientingCopier.canOrient(source.format), source.bases.allSatisfy({ $0 != nil }) else {
            throw FFmpegError("orient(\(lens) \(source.format.rawValue))", code: pausecam_averror(EINVAL))
        }
        let layout = OrientingCopier.layout(format: source.format, width: source.width, height: source.height,
                                            orientation: orientation)
        // Rows start on 64-byte boundaries, as libswscale's vector code likes them.
        let strides = layout.planes.map { ($0.width + 63) & ~63 }
        let sizes = zip(strides, layout.planes).map { $0 * $1.rows }
        let buffer = orientationBuffer(byteCount: sizes.reduce(0, +))
        var bases: [UnsafeMutablePointer<UInt8>] = []
        var offset = 0
        for size in sizes {
            bases.append(buffer + offset)
            offset += size
        }
        let sourceRows = zip(source.bases, source.strides).map {
            PlaneRows(base: UnsafeMutablePointer(mutating: $0!), stride: $1)
        }
        OrientingCopier.copy(sourceRows, format: source.format, width: source.width, height: source.height,
                             orientation: orientation,
                             into: zip(bases, strides).map { PlaneRows(base: $0, stride: $1) })
        let oriented = SourcePlanes(width: layout.width, height: layout.height, format: layout.format,
                                    range: source.range, bases: bases.map { UnsafePointer($0) }, strides: strides)
        try draw(oriented, crop: crop, lens: lens, into: output)
    }

    /// The scaler's buffer for oriented pictures, at least `byteCount` bytes, 64-byte aligned; kept for the next
    /// frame (a lens's pictures have one size), grown when a larger picture comes.
    private func orientationBuffer(byteCount: Int) -> UnsafeMutablePointer<UInt8> {
        if let buffer = orientedPicture, buffer.count >= byteCount {
            return buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        }
        orientedPicture?.deallocate()
        let made = UnsafeMutableRawBufferPointer.allocate(byteCount: max(64, byteCount), alignment: 64)
        orientedPicture = made
        return made.baseAddress!.bindMemory(to: UInt8.self, capacity: made.count)
    }

    /// Draws the `crop` (nil: all) of `source` into the canvas `output`: letterboxed or pillarboxed, scaled and
    /// re-ranged by libswscale, then given the canvas's matrix. A picture that needs no scaling skips libswscale: a
    /// full-range one (a decoded JPEG, optimized builds) goes through `FullRangePictureConverter`'s one pass, a
    /// limited-range yuv420p one through the matrix converter's copying pass.
    private func draw(_ source: SourcePlanes, crop requested: PixelRect?, lens: String,
                      into output: UnsafeMutablePointer<AVFrame>) throws {
        var crop = requested ?? PixelRect(x: 0, y: 0, width: source.width, height: source.height)
        crop.x = max(0, min(crop.x, source.width - 2)) & ~1
        crop.y = max(0, min(crop.y, source.height - 2)) & ~1
        crop.width = max(2, min(crop.width, source.width - crop.x))
        crop.height = max(2, min(crop.height, source.height - crop.y))
        let target = placement(sourceWidth: crop.width, sourceHeight: crop.height)

        let destination = Self.planes(of: output)
        if target.width < width || target.height < height {
            Self.fillBlack(destination, width: width, height: height)
        }
        let offsets = Self.cropOffsets(format: source.format, strides: source.strides, crop: crop)
        let start: [UnsafePointer<UInt8>?] = zip(source.bases, offsets).map { base, offset in base.map { $0 + offset } }
        if drawsFullRangeInOnePass, source.range == .full, source.format == .yuv420p || source.format == .yuv422p,
           crop.width == target.width, crop.height == target.height {
            // A decoded JPEG at the canvas's size: range, 4:2:0 chroma and matrix in one pass, no libswscale.
            return Self.convertFullRange(start, strides: source.strides,
                                         chromaRows: source.format == .yuv422p ? .perLumaRow : .perTwoLumaRows,
                                         width: crop.width, height: crop.height, into: destination, at: target,
                                         with: colorimetry.fullRangeConverter)
        }
        if let converter = colorimetry.converterFromSources, source.format == .yuv420p, source.range == .limited,
           crop.width == target.width, crop.height == target.height {
            // Nothing to scale or re-range: one pass copies the picture onto the canvas and changes its matrix.
            return Self.convert(start, strides: source.strides, width: crop.width, height: crop.height,
                                into: destination, at: target, with: converter)
        }
        let scaler = try context(for: ScalerContext.Key(
            sourceWidth: crop.width, sourceHeight: crop.height, format: source.format, range: source.range,
            targetWidth: target.width, targetHeight: target.height)).pointer
        var destinationPointers: [UnsafeMutablePointer<UInt8>?] = [
            destination.data[0] + target.y * destination.stride[0] + target.x,
            destination.data[1] + target.y / 2 * destination.stride[1] + target.x / 2,
            destination.data[2] + target.y / 2 * destination.stride[2] + target.x / 2,
            nil,
        ]
        var destinationStrides: [Int32] = destination.stride.map { Int32($0) } + [0]
        var strides = source.strides.map { Int32($0) }
        strides += [Int32](repeating: 0, count: 4 - strides.count)
        var sourcePointers = start + [UnsafePointer<UInt8>?](repeating: nil, count: 4 - start.count)
        let result = sws_scale(scaler, &sourcePointers, &strides, 0, Int32(crop.height), &destinationPointers,
                               &destinationStrides)
        try FFmpegError.check(result, "sws_scale(\(lens) \(source.format.rawValue))")
        colorimetry.converterFromSources?.convert(destination, in: target)
    }

    /// Copies a `width`×`height` limited-range yuv420p picture (its planes' first bytes and strides) onto the canvas
    /// rectangle `target` of the same size, changing its matrix on the way (`YUVMatrixConverter`'s out-of-place
    /// pass).
    static func convert(_ bases: [UnsafePointer<UInt8>?], strides: [Int], width: Int, height: Int,
                        into destination: (data: [UnsafeMutablePointer<UInt8>], stride: [Int]), at target: PixelRect,
                        with converter: YUVMatrixConverter) {
        converter.convert(from: sourcePlanes(bases, strides: strides), to: canvasPlanes(destination, at: target),
                          width: width, height: height)
    }

    /// Draws a `width`×`height` full-range planar picture (its planes' first bytes and strides) onto the canvas
    /// rectangle `target` of the same size, in limited range with the canvas's matrix (`FullRangePictureConverter`).
    static func convertFullRange(_ bases: [UnsafePointer<UInt8>?], strides: [Int],
                                 chromaRows: FullRangePictureConverter.ChromaRows, width: Int, height: Int,
                                 into destination: (data: [UnsafeMutablePointer<UInt8>], stride: [Int]),
                                 at target: PixelRect, with converter: FullRangePictureConverter) {
        converter.convert(from: sourcePlanes(bases, strides: strides), chromaRows: chromaRows,
                          to: canvasPlanes(destination, at: target), width: width, height: height)
    }

    /// A source picture's three planes (first bytes and strides) as the converters take them. Both converters only
    /// read their source, so the pointers are made mutable in type only.
    static func sourcePlanes(_ bases: [UnsafePointer<UInt8>?], strides: [Int]) -> YUVMatrixConverter.Planes {
        func rows(_ index: Int) -> PlaneRows {
            PlaneRows(base: UnsafeMutablePointer(mutating: bases[index]!), stride: strides[index])
        }
        return YUVMatrixConverter.Planes(luma: rows(0), blue: rows(1), red: rows(2))
    }

    /// The canvas's planes from the corner of `target` on.
    static func canvasPlanes(_ destination: (data: [UnsafeMutablePointer<UInt8>], stride: [Int]),
                             at target: PixelRect) -> YUVMatrixConverter.Planes {
        YUVMatrixConverter.Planes(
            luma: PlaneRows(base: destination.data[0] + target.y * destination.stride[0] + target.x,
                            stride: destination.stride[0]),
            blue: PlaneRows(base: destination.data[1] + target.y / 2 * destination.stride[1] + target.x / 2,
                            stride: destination.stride[1]),
            red: PlaneRows(base: destination.data[2] + target.y / 2 * destination.stride[2] + target.x / 2,
                           stride: destination.stride[2]))
    }

    /// The FFmpeg pixel format of a pipeline format, and how many planes it has.
    static func ffmpegFormat(_ format: PixelFormat) -> (AVPixelFormat, Int) {
        switch format {
        case .yuv420p: return (AV_PIX_FMT_YUV420P, 3)
        case .yuyv422: return (AV_PIX_FMT_YUYV422, 1)
        case .yuv422p: return (AV_PIX_FMT_YUV422P, 3)
        case .jpeg: return (AV_PIX_FMT_NONE, 1)  // never scaled: `draw` decodes it first
        }
    }

    /// Byte offsets of the crop's top-left corner in each plane (chroma subsampled per format; x and y even).
    static func cropOffsets(format: PixelFormat, strides: [Int], crop: PixelRect) -> [Int] {
        switch format {
        case .yuv420p:
            return [crop.y * strides[0] + crop.x, crop.y / 2 * strides[1] + crop.x / 2,
                    crop.y / 2 * strides[2] + crop.x / 2]
        case .yuyv422:
            return [crop.y * strides[0] + crop.x * 2]
        case .jpeg:
            return [0]
        case .yuv422p:
            return [crop.y * strides[0] + crop.x, crop.y * strides[1] + crop.x / 2, crop.y * strides[2] + crop.x / 2]
        }
    }

    /// Calls `body` with stable base addresses of every plane's bytes.
    static func withBaseAddresses<R>(_ planes: [Plane], _ body: ([UnsafePointer<UInt8>?]) throws -> R) rethrows -> R {
        func recurse(_ index: Int, _ collected: [UnsafePointer<UInt8>?]) throws -> R {
            if index == planes.count { return try body(collected) }
            return try planes[index].bytes.withUnsafeBufferPointer { try recurse(index + 1, collected + [$0.baseAddress]) }
        }
        return try recurse(0, [])
    }

    /// The first three data pointers and strides of a planar frame.
    static func planes(of frame: UnsafeMutablePointer<AVFrame>)
        -> (data: [UnsafeMutablePointer<UInt8>], stride: [Int]) {
        let data = withUnsafeBytes(of: frame.pointee.data) { raw in
            (0..<3).map { raw.load(fromByteOffset: $0 * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                                   as: UnsafeMutablePointer<UInt8>?.self)! }
        }
        let stride = withUnsafeBytes(of: frame.pointee.linesize) { raw in
            (0..<3).map { Int(raw.load(fromByteOffset: $0 * MemoryLayout<Int32>.stride, as: Int32.self)) }
        }
        return (data, stride)
    }

    /// Paints a yuv420p picture black (limited range: Y 16, U and V 128).
    static func fillBlack(_ planes: (data: [UnsafeMutablePointer<UInt8>], stride: [Int]), width: Int, height: Int) {
        for row in 0..<height { planes.data[0].advanced(by: row * planes.stride[0]).update(repeating: 16, count: width) }
        for plane in 1...2 {
            for row in 0..<(height / 2) {
                planes.data[plane].advanced(by: row * planes.stride[plane]).update(repeating: 128, count: width / 2)
            }
        }
    }
}
