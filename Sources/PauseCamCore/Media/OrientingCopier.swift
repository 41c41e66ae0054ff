/// Copies a picture's planes turned and mirrored (`PictureOrientation`): the pure sample shuffle that lets a lens
/// mounted on its side record upright. It works on whole samples, so it is exact: no sample is interpolated except
/// where a quarter turn changes how chroma is subsampled (below).
///
/// Sources: planar yuv420p and yuv422p, and packed yuyv422 (read in place as three interleaved planes). Results are
/// planar: 4:2:0 stays 4:2:0 (its chroma grid is square, so it turns as it is). 4:2:2 keeps its layout for a half
/// turn or a mirror, and becomes 4:2:0 for a quarter turn, whose chroma would otherwise be subsampled vertically
/// (4:4:0, which the canvas does not take): each result chroma sample is the rounded mean of the two turned samples
/// it covers, the box filter a 4:2:2 → 4:2:0 conversion uses. Width and height are taken even (an odd last row or
/// column is left out), as the canvas's 4:2:0 needs.
///
/// The caller owns both pictures; the copier only reads the source and only writes the destination, which must not
/// overlap it. Nothing is allocated per call except by `oriented(_:…)`, the array form for tests and slow paths.
public enum OrientingCopier {
    /// What an oriented picture looks like: its size, its format, and each plane's samples per row and rows.
    public struct Layout: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var format: PixelFormat
        /// Per plane (Y, U, V): samples per row and rows.
        public var planes: [PlaneSize]

        /// One plane's samples per row and rows.
        public struct PlaneSize: Sendable, Equatable {
            public var width: Int
            public var rows: Int
        }

        /// Bytes the three planes need when packed tightly (stride = width).
        public var byteCount: Int { planes.reduce(0) { $0 + $1.width * $1.rows } }
    }

    /// True for the formats `copy` takes.
    public static func canOrient(_ format: PixelFormat) -> Bool {
        format == .yuv420p || format == .yuv422p || format == .yuyv422
    }

    /// The layout a `width`×`height` picture in `format` has once oriented.
    public static func layout(format: PixelFormat, width: Int, height: Int,
                              orientation: PictureOrientation) -> Layout {
        let w = width & ~1, h = height & ~1
        let (ow, oh) = orientation.orientedSize(width: w, height: h)
        let format: PixelFormat = format == .yuv420p || orientation.rotation.swapsSides ? .yuv420p : .yuv422p
        let chroma = Layout.PlaneSize(width: ow / 2, rows: format == .yuv420p ? oh / 2 : oh)
        return Layout(width: ow, height: oh, format: format,
                      planes: [Layout.PlaneSize(width: ow, rows: oh), chroma, chroma])
    }

    /// Copies the `width`×`height` picture in `format` (its planes' first bytes and strides: three for the planar
    /// formats, one for yuyv422) into `destination` (three planes, sized as `layout` says), oriented. Returns the
    /// layout written.
    @discardableResult
    public static func copy(_ source: [PlaneRows], format: PixelFormat, width: Int, height: Int,
                            orientation: PictureOrientation, into destination: [PlaneRows]) -> Layout {
        precondition(canOrient(format), "OrientingCopier cannot orient \(format.rawValue)")
        let layout = layout(format: format, width: width, height: height, orientation: orientation)
        let w = width & ~1, h = height & ~1
        let walks: [SampleWalk]
        switch format {
        case .yuv420p:
            walks = [SampleWalk(source[0], sampleStride: 1, width: w, height: h),
                     SampleWalk(source[1], sampleStride: 1, width: w / 2, height: h / 2),
                     SampleWalk(source[2], sampleStride: 1, width: w / 2, height: h / 2)]
        case .yuv422p:
            walks = [SampleWalk(source[0], sampleStride: 1, width: w, height: h),
                     SampleWalk(source[1], sampleStride: 1, width: w / 2, height: h),
                     SampleWalk(source[2], sampleStride: 1, width: w / 2, height: h)]
        default:
            // Y0 U Y1 V: luma every second byte, U and V every fourth from bytes 1 and 3.
            let packed = source[0]
            walks = [SampleWalk(packed, sampleStride: 2, width: w, height: h),
                     SampleWalk(PlaneRows(base: packed.base + 1, stride: packed.stride), sampleStride: 4,
                                width: w / 2, height: h),
                     SampleWalk(PlaneRows(base: packed.base + 3, stride: packed.stride), sampleStride: 4,
                                width: w / 2, height: h)]
        }
        let chromaPairs = format != .yuv420p && orientation.rotation.swapsSides
        for (index, walk) in walks.enumerated() {
            copyPlane(walk, orientation: orientation, averagingPairs: index > 0 && chromaPairs,
                      into: destination[index])
        }
        return layout
    }

    /// The oriented picture as new tightly packed planes (stride = width); for tests and one-off pictures.
    public static func oriented(_ planes: [Plane], format: PixelFormat, width: Int, height: Int,
                                orientation: PictureOrientation) -> (layout: Layout, planes: [Plane]) {
        let layout = layout(format: format, width: width, height: height, orientation: orientation)
        let sources = planes.map { plane -> UnsafeMutablePointer<UInt8> in
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, plane.bytes.count))
            copy.initialize(from: plane.bytes, count: plane.bytes.count)
            return copy
        }
        let targets = layout.planes.map { size -> UnsafeMutablePointer<UInt8> in
            let target = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, size.width * size.rows))
            target.initialize(repeating: 0, count: max(1, size.width * size.rows))
            return target
        }
        defer { (sources + targets).forEach { $0.deallocate() } }
        copy(zip(sources, planes).map { PlaneRows(base: $0, stride: $1.stride) }, format: format, width: width,
             height: height, orientation: orientation,
             into: zip(targets, layout.planes).map { PlaneRows(base: $0, stride: $1.width) })
        let result = zip(targets, layout.planes).map { target, size in
            Plane(bytes: Array(UnsafeBufferPointer(start: target, count: size.width * size.rows)), stride: size.width)
        }
        return (layout, result)
    }

    /// One source plane as the copier walks it: rows `stride` bytes apart, samples `sampleStride` bytes apart.
    struct SampleWalk {
        var base: UnsafeMutablePointer<UInt8>
        var rowStride: Int
        var sampleStride: Int
        var width: Int
        var height: Int

        init(_ rows: PlaneRows, sampleStride: Int, width: Int, height: Int) {
            base = rows.base
            rowStride = rows.stride
            self.sampleStride = sampleStride
            self.width = width
            self.height = height
        }
    }

    /// Writes `source` oriented into `destination`. Each destination row is one straight walk through the source
    /// (along a source row or down a source column, either way), so the inner loop is a pointer and a step.
    static func copyPlane(_ source: SampleWalk, orientation: PictureOrientation, averagingPairs: Bool,
                          into destination: PlaneRows) {
        let (w, h) = (source.width, source.height)
        guard w > 0, h > 0 else { return }
        let (rs, ss) = (source.rowStride, source.sampleStride)
        let (orientedWidth, orientedHeight) = orientation.orientedSize(width: w, height: h)
        let mirrored = orientation.mirrored
        let outputWidth = averagingPairs ? orientedWidth / 2 : orientedWidth
        for row in 0..<orientedHeight {
            // The source sample of the destination's first column in this row, and the step to the next column.
            let start: Int, step: Int
            switch orientation.rotation {
            case .none:
                (start, step) = mirrored ? (row * rs + (w - 1) * ss, -ss) : (row * rs, ss)
            case .quarter:
                (start, step) = mirrored ? (row * ss, rs) : ((h - 1) * rs + row * ss, -rs)
            case .half:
                (start, step) = mirrored ? ((h - 1 - row) * rs, ss) : ((h - 1 - row) * rs + (w - 1) * ss, -ss)
            case .threeQuarters:
                (start, step) = mirrored ? ((h - 1) * rs + (w - 1 - row) * ss, -rs) : ((w - 1 - row) * ss, rs)
            }
            var from = source.base + start
            var to = destination.base + row * destination.stride
            if averagingPairs {
                for _ in 0..<outputWidth {
                    let sum = UInt16(from.pointee) + UInt16(from[step]) + 1
                    to.pointee = UInt8(truncatingIfNeeded: sum >> 1)
                    from += 2 * step
                    to += 1
                }
            } else if step == 1 {
                to.update(from: from, count: outputWidth)
            } else {
                for _ in 0..<outputWidth {
                    to.pointee = from.pointee
                    from += step
                    to += 1
                }
            }
        }
    }
}
