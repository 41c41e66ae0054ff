import CFFmpeg
import Foundation
import PauseCamCore

/// Writes the clip's thumbnail: a frame fitted to the canvas (so it looks like the movie, bars and zoom included),
/// scaled to about 480 pixels wide, JPEG-encoded by `JPEGEncoder`, and written with `NewFile`: an
/// existing file (or link) is never overwritten, and a write that fails leaves no half-written thumbnail.
struct ThumbnailWriter {
    var canvasWidth: Int
    var canvasHeight: Int
    var thumbnailWidth = 480

    /// Encodes `frame` and writes it at `path`.
    func write(_ frame: VideoFrame, to path: String) throws {
        let canvas = CanvasScaler(width: canvasWidth, height: canvasHeight)
        let picture = try canvas.scale(frame)
        defer { FFmpegFrame.release(picture) }
        let width = min(thumbnailWidth, canvas.width) & ~1
        let height = max(2, (canvas.height * width / max(1, canvas.width)) & ~1)
        let jpeg = try JPEGEncoder(quantiser: 3).encode(picture, colorimetry: canvas.colorimetry, width: width,
                                                        height: height)
        // All or nothing: a write that fails half-way (a full disk) removes the file instead of leaving a torn JPEG.
        try jpeg.withUnsafeBytes { try NewFile.write($0, to: path, synchronize: false) }
    }
}
