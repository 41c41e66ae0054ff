/// `live:` — the program going out while the rig runs, beside the recording: a webcam device and stream destinations.
extension Rig {
    /// The rig's live outputs, decoded and checked (`RigDecoder+Live`).
    public struct Live: Sendable, Equatable {
        /// Which v4l2loopback device shows the program as a webcam.
        public enum Webcam: Sendable, Equatable {
            /// A device node, `/dev/videoN`.
            case device(String)
            /// The loopback device whose card label is this (`card_label=` of the module).
            case label(String)
        }

        /// The layout of the webcam's pictures (`webcam: {format: …}`); both are BT.601 limited range.
        public enum WebcamFormat: String, Sendable, CaseIterable {
            /// Planar 4:2:0 (V4L2 "YU12"), the default: the program's own layout, copied without conversion when
            /// the lens is at the program's size and not zoomed.
            case i420
            /// Packed 4:2:2, for a reader that takes nothing else: every picture is converted.
            case yuyv
        }

        /// What the live outputs show while the recording is paused.
        public enum WhilePaused: String, Sendable, CaseIterable {
            /// The live picture goes on (the default): a pause cuts only the recording.
            case live
            /// A still with the rig's name.
            case slate
        }

        /// One stream destination.
        public struct Stream: Sendable, Equatable {
            public var url: StreamURL
            /// Its name in `status`, events and `live on|off NAME`: `name:`, else the URL's host.
            public var name: String
            /// The picture's size on this stream; `nil` is the program's.
            public var width: Int?
            public var height: Int?
            /// The video's bits per second (x264 CBR-like: bitrate = maxrate, a VBV buffer of one second).
            public var bitrate: Int
            /// The AAC sound's bits per second.
            public var audioBitrate: Int
            /// Whether it goes live when the rig starts (`start: on`, the default) or waits for `live on NAME`.
            public var startsOn: Bool

            /// The video bitrate of a stream that names none: a 720p30 stream at a streaming site's usual rate.
            public static let defaultBitrate = 3_000_000
            /// The AAC bitrate of a stream that names none.
            public static let defaultAudioBitrate = 128_000

            public init(url: StreamURL, name: String, width: Int? = nil, height: Int? = nil,
                        bitrate: Int = Stream.defaultBitrate, audioBitrate: Int = Stream.defaultAudioBitrate,
                        startsOn: Bool = true) {
                self.url = url
                self.name = name
                self.width = width
                self.height = height
                self.bitrate = bitrate
                self.audioBitrate = audioBitrate
                self.startsOn = startsOn
            }
        }

        public var webcam: Webcam?
        /// The webcam's picture layout; meaningful only with `webcam`.
        public var webcamFormat: WebcamFormat = .i420
        /// The destinations in file order.
        public var streams: [Stream]
        public var whilePaused: WhilePaused

        public init(webcam: Webcam? = nil, streams: [Stream] = [], whilePaused: WhilePaused = .live) {
            self.webcam = webcam
            self.streams = streams
            self.whilePaused = whilePaused
        }
    }
}
