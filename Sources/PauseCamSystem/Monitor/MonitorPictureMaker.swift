import CFFmpeg
import PauseCamCore

/// The worker side of `MonitorFeed`: decides which pictures are due and makes their JPEGs. Used only on the feed's
/// worker queue (the feed keeps it in a `Guarded` only that worker takes).
///
/// Pacing goes by the frames' capture times, not by a clock of its own: the program picture at most every
/// `programInterval` of capture time, a lens's tile at most every `tileInterval`. On real cameras that is real time;
/// on the simulated clock it keeps the monitor as deterministic as the frames. A change of the program (another
/// lens, another digital zoom) makes the next program picture due at once.
///
/// Each stream (the program, each lens's tile) has its own `CanvasScaler` (for uncompressed and turned frames: it
/// crops for digital zoom as the movie's canvas does), its own MJPEG decoder and its own `JPEGEncoder`, so a
/// stream's sizes never rebuild another's contexts. An upright MJPEG frame goes from its decoded picture straight
/// to the encoder, and the program's decodes are shared with the movie's (`DecodedPictureShare`).
final class MonitorPictureMaker {
    /// The shortest capture time between two program pictures: 15 pictures a second at most.
    static let programInterval = MediaTime(value: 1, timescale: 15)
    /// The shortest capture time between two tiles of one lens: 3 a second at most.
    static let tileInterval = MediaTime(value: 1, timescale: 3)
    /// The program picture's largest width; a narrower lens keeps its own.
    static let programWidth = 960
    /// A tile's largest width.
    static let tileWidth = 320
    /// The JPEG quantiser for the monitor: smaller files than the thumbnail's, for a live stream.
    static let quantiser: Int32 = 5

    /// A JPEG made from one frame.
    struct Made {
        var jpeg: [UInt8]
        var width: Int
        var height: Int
        var captureTime: MediaTime
    }

    /// One stream's scaler (fixed to its size) and encoder, and for an MJPEG lens its own decoder at the
    /// reduction it was opened with.
    private struct Stream {
        var scaler: CanvasScaler
        var encoder: JPEGEncoder
        var decoder: (reduction: Int, decoder: MJPEGDecoder)?
    }

    /// The program generation and capture time of the last program picture made.
    private var lastProgram: (generation: UInt64, pts: MediaTime)?
    /// The capture time of the last tile made, per lens.
    private var lastTile: [String: MediaTime] = [:]
    /// The program's stream, and each lens's tile stream.
    private var program: Stream?
    private var tiles: [String: Stream] = [:]
    /// How many pictures failed to be made (a torn MJPEG frame that does not decode), for tests and diagnostics.
    private(set) var failures = 0
    /// The last failure's text.
    private(set) var lastFailure: String?

    /// Whether a program picture of `frame` is due for the program `generation`.
    func programIsDue(_ frame: VideoFrame, generation: UInt64) -> Bool {
        guard let lastProgram, lastProgram.generation == generation else { return true }
        return Self.isDue(frame.pts, after: lastProgram.pts, interval: Self.programInterval)
    }

    /// Whether a tile of `frame` is due for its lens.
    func tileIsDue(_ frame: VideoFrame) -> Bool {
        guard let last = lastTile[frame.lens] else { return true }
        return Self.isDue(frame.pts, after: last, interval: Self.tileInterval)
    }

    /// A frame captured `interval` or more after `last` is due; so is one captured before it (a camera that
    /// restarted its timestamps), but never the same frame twice.
    static func isDue(_ pts: MediaTime, after last: MediaTime, interval: MediaTime) -> Bool {
        if pts < last { return true }
        guard let next = try? last.adding(interval) else { return false }
        return pts >= next
    }

    /// The program picture of `frame` cropped to `digitalZoom` (the centre, as the movie crops it), at most
    /// `programWidth` wide with the frame's aspect; `nil` when it could not be made (counted in `failures`).
    func programPicture(of frame: VideoFrame, digitalZoom: Double, generation: UInt64) -> Made? {
        lastProgram = (generation, frame.pts)
        var cropped = frame
        if digitalZoom > 1.0001 {
            cropped.crop = ZoomPlan.centreCrop(width: frame.orientedWidth, height: frame.orientedHeight,
                                               factor: digitalZoom)
        }
        return make(cropped, maximumWidth: Self.programWidth, sharesDecode: true, stream: &program)
    }

    /// The tile of `frame` (its whole picture), at most `tileWidth` wide; `nil` when it could not be made.
    func tile(of frame: VideoFrame) -> Made? {
        lastTile[frame.lens] = frame.pts
        var uncropped = frame
        uncropped.crop = nil
        return make(uncropped, maximumWidth: Self.tileWidth, sharesDecode: false, stream: &tiles[frame.lens])
    }

    /// Forgets every stream's scaler and encoder and the pacing (nobody watches: their memory goes).
    func reset() {
        lastProgram = nil
        lastTile = [:]
        program = nil
        tiles = [:]
    }

    /// Draws `frame` (its crop) on a canvas of at most `maximumWidth` with the frame's aspect and encodes it. An
    /// upright MJPEG frame skips the canvas: its decoded picture goes to the JPEG encoder, which scales the crop
    /// straight to the picture's size, with no limited-range canvas between two full-range JPEGs
    /// (`JPEGEncoder.encode(decoded:…)`). The program picture's decode is shared with the movie's
    /// (`DecodedPictureShare`: while recording, the program lens's frames are decoded once for both); a tile uses
    /// that shared picture when it is there, and otherwise decodes at the smallest reduction that still covers
    /// its size (a 1920-wide camera at a quarter for a 320-wide tile).
    private func make(_ frame: VideoFrame, maximumWidth: Int, sharesDecode: Bool, stream: inout Stream?) -> Made? {
        let (width, height) = Self.size(of: frame, maximumWidth: maximumWidth)
        if stream == nil || stream!.scaler.width != width || stream!.scaler.height != height {
            stream = Stream(scaler: CanvasScaler(width: width, height: height),
                            encoder: JPEGEncoder(quantiser: Self.quantiser))
        }
        let scaler = stream!.scaler, encoder = stream!.encoder
        do {
            if frame.format == .jpeg, frame.orientation.isUpright, let bytes = frame.planes.first?.bytes {
                let key = DecodedPictureShare.Key(lens: frame.lens, bytes: bytes)
                var reduction = 0
                let picture: DecodedPicture?
                if let ready = DecodedPictureShare.shared.ready(key) {
                    picture = ready
                } else if sharesDecode {
                    picture = try DecodedPictureShare.shared.picture(key, publish: true) {
                        try decoder(reduction: 0, in: &stream!).decodePicture(bytes)
                    }
                } else {
                    let crop = frame.crop ?? PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
                    reduction = Self.reduction(cropWidth: crop.width, cropHeight: crop.height, width: width,
                                               height: height)
                    picture = try decoder(reduction: reduction, in: &stream!).decodePicture(bytes)
                }
                guard let picture else {
                    throw FFmpegError("mjpeg decoder: no picture in \(frame.lens)'s \(bytes.count)-byte JPEG",
                                      code: pausecam_averror(EINVAL))
                }
                let crop = frame.crop.map {
                    PixelRect(x: $0.x >> reduction, y: $0.y >> reduction, width: $0.width >> reduction,
                              height: $0.height >> reduction)
                }
                let jpeg = try encoder.encode(decoded: picture, crop: crop, width: width, height: height)
                return Made(jpeg: jpeg, width: width, height: height, captureTime: frame.pts)
            }
            let canvas = try scaler.scale(frame)
            defer { scaler.recycle(canvas) }
            let jpeg = try encoder.encode(canvas, colorimetry: scaler.colorimetry, width: width, height: height)
            return Made(jpeg: jpeg, width: width, height: height, captureTime: frame.pts)
        } catch {
            failures += 1
            lastFailure = "lens \(frame.lens): \(error)"
            return nil
        }
    }

    /// The stream's decoder at `reduction`, opened anew when it was at another.
    private func decoder(reduction: Int, in stream: inout Stream) throws -> MJPEGDecoder {
        if let current = stream.decoder, current.reduction == reduction { return current.decoder }
        let made = try MJPEGDecoder(reduction: reduction)
        stream.decoder = (reduction, made)
        return made
    }

    /// The largest JPEG decoding reduction (0: full size, 1: half, 2: a quarter, 3: an eighth) at which a crop of
    /// `cropWidth`×`cropHeight` still has at least `width`×`height` pixels, so the picture is never scaled up.
    static func reduction(cropWidth: Int, cropHeight: Int, width: Int, height: Int) -> Int {
        var reduction = 0
        while reduction < 3, cropWidth >> (reduction + 1) >= width, cropHeight >> (reduction + 1) >= height {
            reduction += 1
        }
        return reduction
    }

    /// The picture size for `frame` as oriented: its width up to `maximumWidth`, the height in the frame's aspect,
    /// both even.
    static func size(of frame: VideoFrame, maximumWidth: Int) -> (width: Int, height: Int) {
        let sourceWidth = max(2, frame.orientedWidth), sourceHeight = max(2, frame.orientedHeight)
        let width = max(2, min(maximumWidth, sourceWidth) & ~1)
        let height = max(2, ((sourceHeight * width + sourceWidth / 2) / sourceWidth) & ~1)
        return (width, height)
    }
}
