import Foundation
import PauseCamCore
@_spi(Bench) import PauseCamSystem

/// `PauseCamBench matrix`: the BT.601 → BT.709 conversion of an HD canvas, per frame at 1280x720 and 1920x1080 —
/// the kernel alone (one thread and rows split over two), next to the whole `CanvasScaler.scale` that includes it
/// and to libswscale changing the matrix itself through RGB (what the kernel replaces). Run in a release build.
enum MatrixBench {
    static func run(frames: Int = 300) throws {
        for (width, height) in [(1280, 720), (1920, 1080)] {
            for kernel in YUVMatrixConverter.Kernel.allCases {
                let single = kernelMilliseconds(width: width, height: height, frames: frames, threads: 1, kernel: kernel)
                let split = kernelMilliseconds(width: width, height: height, frames: frames, threads: 2, kernel: kernel)
                print("matrix \(width)x\(height), \(kernel) kernel: \(format(single.cpu)) ms CPU/frame "
                      + "(\(format(single.wall)) ms wall) on one thread; rows split over two threads "
                      + "\(format(split.wall)) ms wall")
            }
            for source in [yuyv(width: width, height: height), yuv420p(width: width, height: height),
                           jpegPlanes(width: width, height: height)] {
                let figures = try CanvasScalerTiming.measure(source, width: width, height: height, frames: frames)
                print("  \(source.format.rawValue) \(width)x\(height) → canvas, ms CPU/frame: scale() \(format(figures.scale)) "
                      + "(the matrix pass alone \(format(figures.matrix))); swscale through RGB instead "
                      + "\(format(figures.swscaleThroughRGB))")
                if let full = figures.fullRange {
                    print("  full-range \(source.format.rawValue) (a decoded JPEG) → canvas, ms CPU/frame: libswscale and "
                          + "the matrix pass \(format(full.swscaleAndMatrix)), one pass \(format(full.onePass))")
                }
            }
        }
    }

    /// The kernel on a `width`×`height` yuv420p picture of varied colours, `frames` times, rows split over
    /// `threads` threads, with `kernel`: milliseconds per frame of the calling thread's CPU time (meaningful for one thread) and of
    /// wall time (what splitting could save; inflated when the machine is busy).
    static func kernelMilliseconds(width: Int, height: Int, frames: Int, threads: Int,
                                   kernel: YUVMatrixConverter.Kernel) -> (cpu: Double, wall: Double) {
        var luma = (0..<(width * height)).map { UInt8(truncatingIfNeeded: 16 + $0 % 220) }
        var blue = (0..<(width * height / 4)).map { UInt8(truncatingIfNeeded: 16 + ($0 * 7) % 225) }
        var red = (0..<(width * height / 4)).map { UInt8(truncatingIfNeeded: 16 + ($0 * 13) % 225) }
        let converter = YUVMatrixConverter.bt601ToBT709
        let chromaHeight = height / 2
        let start = DispatchTime.now().uptimeNanoseconds, startCPU = ThreadCPUTime.nanoseconds()
        luma.withUnsafeMutableBufferPointer { y in
            blue.withUnsafeMutableBufferPointer { b in
                red.withUnsafeMutableBufferPointer { r in
                    let planes = (PlaneRows(base: y.baseAddress!, stride: width),
                                  PlaneRows(base: b.baseAddress!, stride: width / 2),
                                  PlaneRows(base: r.baseAddress!, stride: width / 2))
                    for _ in 0..<frames {
                        if threads == 1 {
                            converter.convert(luma: planes.0, blue: planes.1, red: planes.2, width: width,
                                              height: height, kernel: kernel)
                            continue
                        }
                        DispatchQueue.concurrentPerform(iterations: threads) { part in
                            let rows = (chromaHeight * part / threads)..<(chromaHeight * (part + 1) / threads)
                            converter.convert(luma: planes.0, blue: planes.1, red: planes.2, width: width,
                                              height: height, chromaRows: rows, kernel: kernel)
                        }
                    }
                }
            }
        }
        return (Double(ThreadCPUTime.nanoseconds() - startCPU) / 1e6 / Double(frames),
                Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 / Double(frames))
    }

    static func yuyv(width: Int, height: Int) -> VideoFrame {
        let bytes = (0..<(width * height * 2)).map { UInt8(truncatingIfNeeded: 16 + ($0 * 5) % 220) }
        return VideoFrame(pts: .zero, width: width, height: height, format: .yuyv422,
                          planes: [Plane(bytes: bytes, stride: width * 2)], lens: "bench")
    }

    static func yuv420p(width: Int, height: Int) -> VideoFrame {
        let luma = (0..<(width * height)).map { UInt8(truncatingIfNeeded: 16 + $0 % 220) }
        let chroma = (0..<(width * height / 4)).map { UInt8(truncatingIfNeeded: 16 + ($0 * 7) % 225) }
        return VideoFrame(pts: .zero, width: width, height: height, format: .yuv420p,
                          planes: [Plane(bytes: luma, stride: width), Plane(bytes: chroma, stride: width / 2),
                                   Plane(bytes: chroma, stride: width / 2)], lens: "bench")
    }

    /// A full-range planar 4:2:2 picture of varied colours: what an MJPEG webcam's JPEG decodes to.
    static func jpegPlanes(width: Int, height: Int) -> VideoFrame {
        let luma = (0..<(width * height)).map { UInt8(truncatingIfNeeded: $0 % 256) }
        let blue = (0..<(width * height / 2)).map { UInt8(truncatingIfNeeded: ($0 * 7) % 256) }
        let red = (0..<(width * height / 2)).map { UInt8(truncatingIfNeeded: ($0 * 13) % 256) }
        return VideoFrame(pts: .zero, width: width, height: height, format: .yuv422p,
                          planes: [Plane(bytes: luma, stride: width), Plane(bytes: blue, stride: width / 2),
                                   Plane(bytes: red, stride: width / 2)], lens: "bench", range: .full)
    }

    static func format(_ milliseconds: Double) -> String { String(format: "%.2f", milliseconds) }
}
