import PauseCamCore

/// A simulated USB bus with room for a fixed number of camera streams at once, for the virtual rig: a camera on it
/// (`camera(_:)`) that starts while the bus is full throws `VirtualUSBBus.BandwidthExhausted`, as a V4L2 camera's
/// `VIDIOC_STREAMON` fails with `ENOSPC` when its real bus has no periodic bandwidth left. A stop frees the stream's
/// room. It exercises the engine's answer to a full bus (stop a hot lens on the same bus, try again) without
/// hardware: the program puts virtual lenses on one with `PAUSECAM_FAULT_USB_STREAMS`, tests directly.
public final class VirtualUSBBus: Sendable {
    /// The bus's name in messages and in `DeviceHub.lensBuses` ("virtual bus (2 streams)").
    public let name: String
    /// How many cameras on this bus may stream at once.
    public let streams: Int
    /// The cameras streaming now, by identity.
    private let streaming = Guarded<Set<ObjectIdentifier>>([])

    /// A bus that carries at most `streams` camera streams at once.
    public init(streams: Int) {
        self.streams = streams
        name = "virtual bus (\(streams) stream\(streams == 1 ? "" : "s"))"
    }

    /// The start of a camera on a full bus, as `VIDIOC_STREAMON`'s `ENOSPC` would refuse it.
    public struct BandwidthExhausted: CameraStartFailure, CustomStringConvertible {
        /// The camera refused.
        public var camera: String
        /// The bus's name.
        public var bus: String
        public var isBandwidthExhausted: Bool { true }
        public var description: String {
            "\(camera): cannot start streaming: \(bus) has no bandwidth left (simulated VIDIOC_STREAMON: ENOSPC)"
        }
    }

    /// `camera` placed on this bus: its starts take a stream's room (or are refused), its stops give it back.
    public func camera(_ camera: any Camera) -> any Camera {
        Member(camera, bus: self)
    }

    /// Takes a stream's room for `member`; false when the bus is full. A member already streaming keeps its room.
    fileprivate func reserve(_ member: ObjectIdentifier) -> Bool {
        streaming.withLock { streaming in
            guard !streaming.contains(member) else { return true }
            guard streaming.count < streams else { return false }
            streaming.insert(member)
            return true
        }
    }

    fileprivate func release(_ member: ObjectIdentifier) {
        _ = streaming.withLock { $0.remove(member) }
    }

    /// A camera on the bus: the wrapped camera, started only when the bus has room.
    private final class Member: Camera, Sendable {
        let wrapped: any Camera
        let bus: VirtualUSBBus
        init(_ wrapped: any Camera, bus: VirtualUSBBus) {
            self.wrapped = wrapped
            self.bus = bus
        }
        var displayName: String { wrapped.displayName }
        var format: CameraFormat { wrapped.format }
        var formatChoice: String? { wrapped.formatChoice }
        func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) throws {
            guard bus.reserve(ObjectIdentifier(self)) else {
                throw BandwidthExhausted(camera: displayName, bus: bus.name)
            }
            do {
                try wrapped.start(deliver: deliver, onEnd: onEnd)
            } catch {
                bus.release(ObjectIdentifier(self))
                throw error
            }
        }
        func stop() {
            wrapped.stop()
            bus.release(ObjectIdentifier(self))
        }
        func setRegionOfInterest(_ region: PixelRect) throws -> RegionOfInterestOutcome {
            try wrapped.setRegionOfInterest(region)
        }
    }
}
