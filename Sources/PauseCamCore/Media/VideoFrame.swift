/// The pixel layouts that travel through the pipeline. Cameras deliver what they deliver; the movie writer
/// converts every frame to the output canvas with libswscale.
public enum PixelFormat: String, Sendable, Hashable {
    /// Planar Y, U, V at 4:2:0 (three planes). The virtual lenses and the encoder's own format.
    case yuv420p
    /// Packed Y0 U Y1 V at 4:2:2 (one plane): what most UVC webcams send uncompressed (`V4L2_PIX_FMT_YUYV`).
    case yuyv422
    /// Planar 4:2:2 (three planes): what MJPEG from most webcams decodes to.
    case yuv422p
    /// One still JPEG, undecoded (one plane: the compressed bytes, `stride` 0): what an MJPEG camera or an MJPEG
    /// `file:` lens delivers. Every MJPEG frame is a keyframe, so a hot lens that is not active costs only the
    /// keeping of its newest buffer; the movie writer decodes the frames that reach the movie, on its own thread.
    case jpeg

    /// True for a compressed format whose pixels exist only after decoding.
    public var isCompressed: Bool { self == .jpeg }
}

/// One plane of pixel data. `stride` is bytes per row; `bytes.count >= stride × rows`.
public struct Plane: Sendable {
    public var bytes: [UInt8]
    public var stride: Int
    public init(bytes: [UInt8], stride: Int) {
        self.bytes = bytes
        self.stride = stride
    }
}

/// A rectangle in pixels, origin top-left. Used for the digital-zoom crop of a frame.
public struct PixelRect: Sendable, Hashable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A captured picture with its capture timestamp. The pixels are value-typed arrays (copy-on-write), so a frame
/// handed to the encoder queue is never mutated by the camera that made it.
public struct VideoFrame: Sendable {
    /// Capture time of the frame, on the session clock (`CLOCK_MONOTONIC` for real cameras).
    public var pts: MediaTime
    public var width: Int
    public var height: Int
    public var format: PixelFormat
    public var planes: [Plane]
    /// The lens (rig role name) whose camera made this frame.
    public var lens: String
    /// The part of the frame to show, for digital zoom; `nil` is the whole frame. The writer scales it to the canvas.
    /// It is a rectangle of the oriented picture (`orientedWidth`×`orientedHeight`), what the canvas shows.
    public var crop: PixelRect?
    /// How the lens's picture is turned before it is fitted into the canvas (`rotate:`, `mirror:`). The pixels stay
    /// as the camera delivered them; whoever draws the frame orients it (a JPEG can only be turned once decoded).
    public var orientation: PictureOrientation
    /// The code values the pixels use: full range for decoded MJPEG, limited for everything else. The scaler
    /// converts from it, so an MJPEG lens and a YUYV lens show the same black and white in one movie.
    public var range: ColorRange

    /// `range` defaults to limited, what uncompressed cameras and the virtual lenses deliver; only a source that
    /// knows better (the MJPEG decoder) says otherwise.
    public init(pts: MediaTime, width: Int, height: Int, format: PixelFormat, planes: [Plane], lens: String,
                crop: PixelRect? = nil, range: ColorRange = .limited, orientation: PictureOrientation = .upright) {
        self.pts = pts
        self.width = width
        self.height = height
        self.format = format
        self.planes = planes
        self.lens = lens
        self.crop = crop
        self.range = range
        self.orientation = orientation
    }

    /// The width of the picture as shown, after `orientation` (the height for a quarter turn).
    public var orientedWidth: Int { orientation.orientedSize(width: width, height: height).width }
    /// The height of the picture as shown, after `orientation`.
    public var orientedHeight: Int { orientation.orientedSize(width: width, height: height).height }
}

/// A run of captured audio: interleaved signed 16-bit samples, the first one captured at `pts`.
public struct AudioChunk: Sendable {
    /// Capture time of the first sample frame, on the session clock.
    public var pts: MediaTime
    public var sampleRate: Int32
    public var channels: Int
    /// Interleaved samples: `frameCount × channels` values.
    public var samples: [Int16]

    public init(pts: MediaTime, sampleRate: Int32, channels: Int, samples: [Int16]) {
        precondition(channels > 0 && samples.count % channels == 0, "audio samples must fill whole frames")
        self.pts = pts
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
    }

    /// Sample frames (one sample per channel) in the chunk.
    public var frameCount: Int { samples.count / channels }

    /// The capture time just after the last sample frame.
    public var end: MediaTime { pts + MediaTime(value: Int64(frameCount), timescale: sampleRate) }

    /// The sample frames in `range`, with their own start time. The caller keeps `range` inside the chunk.
    public func slice(_ range: Range<Int>) -> AudioChunk {
        let start = pts + MediaTime(value: Int64(range.lowerBound), timescale: sampleRate)
        return AudioChunk(pts: start, sampleRate: sampleRate, channels: channels,
                          samples: Array(samples[(range.lowerBound * channels)..<(range.upperBound * channels)]))
    }
}
