import CFFmpeg
import Foundation
import PauseCamCore

/// One stream destination (`live.stream[]`) as a `LiveSink`: the program's frames and sound go through a
/// `BoundedChannel` (policy `.refuse`: a destination too slow for its bitrate loses its own newest items, counted
/// in `statistics.droppedFrames`) to the output's own thread, which scales, encodes (x264 CBR-like, AAC) and muxes
/// them to the URL. A destination that refuses or drops is closed and tried again after `LiveRetryPolicy`'s wait,
/// each change told through `report` as an `EngineEvent` that names the destination and its redacted address only.
///
/// Thread contract: `appendVideo`, `appendAudio`, `setOn` and `close` may come from any thread and never block on
/// the network; `report` is called on the output's thread. `statistics` can be read from any thread.
public final class StreamOutput: LiveSinkControl, @unchecked Sendable {
    /// What one destination sends.
    public struct Settings: Sendable {
        public var url: StreamURL
        public var name: String
        public var width: Int
        public var height: Int
        public var rate: FrameRate
        public var bitrate: Int
        public var audioBitrate: Int
        /// The sound's rate and channels; `nil` rate: no sound track.
        public var audioSampleRate: Int32?
        public var audioChannels: Int
        public var preset: String
        public var keyframeInterval: MediaTime
        /// Wait for room instead of dropping when the destination is behind (`BoundedChannel` policy `.block`): for a
        /// benchmark on the simulated clock, which must count the cost of every frame. Never for a real rig.
        public var blockWhenBehind = false
        /// For a benchmark: told on the output's thread, just after each video packet was handed to
        /// `av_interleaved_write_frame`, the live time of the frame it encodes. `nil` (every rig): nothing is told.
        public var videoPacketWritten: (@Sendable (MediaTime) -> Void)?

        public init(url: StreamURL, name: String, width: Int, height: Int, rate: FrameRate, bitrate: Int,
                    audioBitrate: Int, audioSampleRate: Int32?, audioChannels: Int, preset: String = EncoderLoad.streamPreset,
                    keyframeInterval: MediaTime = .seconds(2)) {
            self.url = url
            self.name = name
            self.width = width
            self.height = height
            self.rate = rate
            self.bitrate = bitrate
            self.audioBitrate = audioBitrate
            self.audioSampleRate = audioSampleRate
            self.audioChannels = audioChannels
            self.preset = preset
            self.keyframeInterval = keyframeInterval
        }

        /// The settings of `stream` for `program`: its own size and bitrates, the program's rate and sound.
        public init(stream: Rig.Live.Stream, program: LiveProgram) {
            self.init(url: stream.url, name: stream.name, width: stream.width ?? program.width,
                      height: stream.height ?? program.height, rate: program.rate, bitrate: stream.bitrate,
                      audioBitrate: stream.audioBitrate, audioSampleRate: program.audioSampleRate.map { Int32($0) },
                      audioChannels: program.audioChannels ?? 1)
        }
    }

    /// How a destination is doing, for `status` and the prompt.
    public struct Statistics: Sendable, Equatable {
        /// Connected and sending now.
        public var live = false
        /// Asked to send (`live on`); false after `live off`.
        public var on = true
        /// The bits per second sent over the last second or so.
        public var bitsPerSecond = 0
        /// Frames this destination lost because it was too slow (its queue was full).
        public var droppedFrames = 0
        /// Times it was lost and tried again: a drop after sending, or a first connection that failed.
        public var outages = 0
        /// While lost: the last failure's short reason (`av_strerror`'s words), the URL redacted; nil once it sends,
        /// and after `live off`.
        public var lostReason: String?
        /// While waiting to try again: when the next attempt starts (`DispatchTime` uptime nanoseconds).
        public var retryAtUptimeNanoseconds: UInt64?
    }

    enum Item: Sendable {
        case video(VideoFrame, MediaTime)
        case audio(AudioChunk)
    }

    public let name: String
    public let settings: Settings
    private let channel: BoundedChannel<Item>
    private let state: Guarded<Statistics>
    private let interrupt = StreamOutputInterrupt()
    private let retry: LiveRetryPolicy
    private let report: @Sendable (EngineEvent) -> Void
    private let finished = DispatchSemaphore(value: 0)
    /// Set by `close()`: the thread sends what is queued, ends the stream and stops.
    private let closing = Guarded(false)
    /// Set by `setOn(false)`, cleared by the thread when it ends the outage: an off and an on again quicker than
    /// the thread looks still end it.
    private let turnedOff = Guarded(false)
    private var isClosing: Bool { closing.withLock { $0 } || interrupt.isClosing }

    /// Starts the output's thread for `settings`; it connects at once when `on`.
    public init(settings: Settings, on: Bool = true, retry: LiveRetryPolicy = LiveRetryPolicy(),
                report: @escaping @Sendable (EngineEvent) -> Void) {
        self.settings = settings
        name = settings.name
        self.retry = retry
        self.report = report
        // About two seconds of frames and sound: beyond that the destination is too slow and loses the newest.
        let frames = max(8, Int((settings.rate.framesPerSecond * 2).rounded(.up)))
        channel = BoundedChannel(capacity: frames * 3, policy: settings.blockWhenBehind ? .block : .refuse)
        var statistics = Statistics()
        statistics.on = on
        state = Guarded(statistics)
        let thread = Thread { [self] in run() }
        thread.name = "pausecam-live-\(settings.name)"
        thread.start()
    }

    public var statistics: Statistics { state.withLock { $0 } }

    public var liveStatus: LiveSinkStatus {
        let now = statistics
        let retryIn = now.retryAtUptimeNanoseconds.map { at -> MediaTime in
            let uptime = DispatchTime.now().uptimeNanoseconds
            return .nanoseconds(at > uptime ? Int64(clamping: at - uptime) : 0)
        }
        return LiveSinkStatus(name: name, on: now.on, live: now.live, bitsPerSecond: now.bitsPerSecond,
                              droppedFrames: now.droppedFrames, outages: now.outages, lostReason: now.lostReason,
                              retryIn: retryIn)
    }

    public func appendVideo(_ frame: VideoFrame, at liveTime: MediaTime) {
        guard state.withLock({ $0.on && $0.live }) else { return }
        if case .refused = channel.send(.video(frame, liveTime)) { state.withLock { $0.droppedFrames += 1 } }
    }

    public func appendAudio(_ chunk: AudioChunk) {
        guard state.withLock({ $0.on && $0.live }) else { return }
        _ = channel.send(.audio(chunk))
    }

    /// `live on|off NAME`: off closes the connection (no retries); on connects again.
    public func setOn(_ on: Bool) {
        if !on { turnedOff.withLock { $0 = true } }
        state.withLock { $0.on = on }
    }

    /// Sends what is queued, ends the stream cleanly and stops the thread; a destination that does not take the end
    /// within a few seconds is cut off (the network calls are interrupted), so this never waits for long.
    public func close() {
        closing.withLock { $0 = true }
        channel.close()
        if finished.wait(timeout: .now() + .seconds(Int(StreamOutputConnection.writeSeconds))) == .timedOut {
            interrupt.close()
            _ = finished.wait(timeout: .now() + .seconds(1))
        }
    }

    // MARK: The output's thread

    private func run() {
        defer { finished.signal() }
        avformat_network_init()
        var failures = 0
        var lostAt: DispatchTime?
        while !isClosing {
            // Off ends an outage: turning on again starts fresh (`liveStarted`, not a `liveBack` whose outage would
            // count the time it was off).
            if takeTurnedOff() {
                failures = 0
                lostAt = nil
                state.withLock {
                    $0.lostReason = nil
                    $0.retryAtUptimeNanoseconds = nil
                }
            }
            guard state.withLock({ $0.on }) else {
                waitAndDiscard(seconds: 0.2)
                continue
            }
            let connection: StreamOutputConnection
            do {
                connection = try StreamOutputConnection(settings: settings, interrupt: interrupt)
            } catch {
                if isClosing { return }
                failures += 1
                if lostAt == nil {
                    // A destination that never connected is lost too, from its first failed attempt.
                    lostAt = .now()
                    state.withLock { $0.outages += 1 }
                }
                lose(error, failures: failures)
                continue
            }
            drainStale()
            state.withLock {
                $0.live = true
                $0.lostReason = nil
                $0.retryAtUptimeNanoseconds = nil
            }
            if takeTurnedOff() { lostAt = nil }
            if let lostAt {
                let outage = MediaTime.nanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds - lostAt.uptimeNanoseconds))
                report(.liveBack(destination: name, outage: outage))
            } else {
                report(.liveStarted(destination: name, address: settings.url.redacted))
            }
            failures = 0
            lostAt = nil
            do {
                try pump(connection)
                connection.finish()
                state.withLock { $0.live = false }
                if isClosing { return }
                // Turned off: the connection ends cleanly, and the loop waits to be turned on again.
            } catch {
                state.withLock {
                    $0.live = false
                    $0.bitsPerSecond = 0
                }
                if isClosing { return }
                failures = 1
                lostAt = .now()
                state.withLock { $0.outages += 1 }
                lose(error, failures: failures)
            }
        }
    }

    /// Whether `setOn(false)` came since the last look; clears it.
    private func takeTurnedOff() -> Bool {
        turnedOff.withLock { off in
            defer { off = false }
            return off
        }
    }

    /// Tells the loss and waits the policy's time (or until turned off), discarding what comes meanwhile (nothing
    /// is owed to a destination that is down: live is now or never). The status says why and when it tries again.
    private func lose(_ error: any Error, failures: Int) {
        let delay = retry.delay(afterFailures: failures)
        let nanoseconds = UInt64(clamping: (try? delay.rescaled(to: 1_000_000_000, rounding: .up).value) ?? Int64.max)
        state.withLock {
            $0.lostReason = Self.shortReason(error, settings.url)
            $0.retryAtUptimeNanoseconds = DispatchTime.now().uptimeNanoseconds &+ nanoseconds
        }
        report(.liveLost(destination: name, reason: Self.redact("\(error)", settings.url), retryIn: delay))
        waitAndDiscard(seconds: delay.seconds, whileOn: true)
        state.withLock { $0.retryAtUptimeNanoseconds = nil }
    }

    /// What went wrong in a few words, for `status` and the page: `av_strerror`'s text of an FFmpeg failure
    /// ("Connection refused"), else the error's own words, the URL redacted, at most 80 characters.
    static func shortReason(_ error: any Error, _ url: StreamURL) -> String {
        let text = (error as? FFmpegError)?.message ?? redact("\(error)", url)
        return text.count > 80 ? String(text.prefix(79)) + "…" : text
    }

    /// Never the URL in a message: libavformat's texts may quote what they were given.
    static func redact(_ text: String, _ url: StreamURL) -> String {
        text.replacingOccurrences(of: url.text, with: url.redacted)
    }

    /// Waits `seconds` (less when the output closes, or is turned off while `whileOn`), draining the channel.
    private func waitAndDiscard(seconds: Double, whileOn: Bool = false) {
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        while !isClosing && DispatchTime.now().uptimeNanoseconds < end && (!whileOn || state.withLock({ $0.on })) {
            drainStale()
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    private func drainStale() { _ = channel.drain() }

    /// Sends what comes until the channel closes (the output closes) or the destination is turned off; throws
    /// when the destination fails.
    private func pump(_ connection: StreamOutputConnection) throws {
        let scaler = CanvasScaler(width: settings.width, height: settings.height)
        var start: MediaTime?
        var windowStart = DispatchTime.now()
        var windowBytes = connection.bytesSent
        while let item = channel.receive() {
            switch item {
            case .video(let frame, let liveTime):
                if start == nil {
                    start = liveTime
                    if let told = settings.videoPacketWritten {
                        connection.videoPacketWritten = { sent in
                            if let time = try? liveTime.adding(sent) { told(time) }
                        }
                    }
                }
                guard let start, let time = try? liveTime.subtracting(start) else { continue }
                let picture = try scaler.scale(frame)
                defer { scaler.recycle(picture) }
                try connection.sendVideo(picture, at: time)
            case .audio(let chunk):
                // Sound waits for the first picture: the connection's time starts there.
                guard let start, chunk.end > start else { continue }
                var shifted = chunk
                if chunk.pts < start {
                    let skip = Int(((start - chunk.pts).seconds * Double(chunk.sampleRate)).rounded(.up))
                    guard skip < chunk.frameCount else { continue }
                    shifted = chunk.slice(skip..<chunk.frameCount)
                }
                shifted.pts = (try? shifted.pts.subtracting(start)) ?? .zero
                try connection.sendAudio(shifted)
            }
            let now = DispatchTime.now()
            let elapsed = Double(now.uptimeNanoseconds - windowStart.uptimeNanoseconds) / 1e9
            if elapsed >= 1 {
                let bits = Int(Double(connection.bytesSent - windowBytes) * 8 / elapsed)
                state.withLock { $0.bitsPerSecond = bits }
                windowStart = now
                windowBytes = connection.bytesSent
            }
            if !state.withLock({ $0.on }) { return }
        }
    }
}
