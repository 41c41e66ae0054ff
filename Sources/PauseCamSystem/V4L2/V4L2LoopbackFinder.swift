import Foundation
import PauseCamCore

/// Finds the v4l2loopback device the rig's `live: webcam:` names, by node or by label, and opens it for writing,
/// turning every way that can fail into a `V4L2LoopbackError` that says what to run.
///
/// It reads sysfs only: `/sys/module/v4l2loopback` (the module is loaded), `/sys/class/video4linux/videoN/name`
/// (a node's card label) and where that entry links to (a loopback's device is virtual, under
/// `/sys/devices/virtual`; a camera's sits on its bus). Both roots are parameters so tests use a folder of their
/// own. Whether a node really is a loopback is QUERYCAP's word, checked when the output opens it.
public struct V4L2LoopbackFinder: Sendable {
    /// How the rig names the device.
    public enum Target: Sendable, Equatable, CustomStringConvertible {
        /// A device node, e.g. `/dev/video10`.
        case device(String)
        /// The loopback's card label (`card_label=` when the module was loaded).
        case label(String)

        public var description: String {
            switch self {
            case .device(let path): return path
            case .label(let label): return "label \"\(label)\""
            }
        }
    }

    /// A loopback device present now.
    public struct Loopback: Sendable, Equatable {
        /// Its node, e.g. `/dev/video10`.
        public var path: String
        /// Its card label.
        public var label: String
        public init(path: String, label: String) {
            self.path = path
            self.label = label
        }
    }

    /// Where sysfs is mounted (`/sys`).
    public var sysfsRoot: String
    /// Where device nodes are (`/dev`).
    public var deviceRoot: String

    public init(sysfsRoot: String = "/sys", deviceRoot: String = "/dev") {
        self.sysfsRoot = sysfsRoot
        self.deviceRoot = deviceRoot
    }

    /// True when the v4l2loopback module is loaded.
    public var isModuleLoaded: Bool {
        FileManager.default.fileExists(atPath: sysfsRoot + "/module/v4l2loopback")
    }

    /// The loopback devices present, in node order.
    public func loopbacks() -> [Loopback] {
        let classFolder = sysfsRoot + "/class/video4linux"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: classFolder)) ?? []
        return entries.filter { $0.hasPrefix("video") }
            .sorted { (Int($0.dropFirst(5)) ?? Int.max, $0) < (Int($1.dropFirst(5)) ?? Int.max, $1) }
            .compactMap { entry -> Loopback? in
                let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: classFolder + "/" + entry)) ?? ""
                guard link.contains("devices/virtual/") else { return nil }
                let name = (try? String(contentsOfFile: classFolder + "/" + entry + "/name", encoding: .utf8)) ?? ""
                return Loopback(path: deviceRoot + "/" + entry, label: name.trimmingCharacters(in: .whitespacesAndNewlines))
            }
    }

    /// The node `target` names. Throws `moduleNotLoaded` when the module is missing (whatever the target),
    /// `noSuchDevice` for a node that does not exist, `noDeviceLabelled` for a label no loopback carries.
    public func resolve(_ target: Target) throws -> String {
        guard isModuleLoaded else { throw V4L2LoopbackError.moduleNotLoaded }
        switch target {
        case .device(let path):
            guard FileManager.default.fileExists(atPath: path) else { throw V4L2LoopbackError.noSuchDevice(path) }
            return path
        case .label(let label):
            let present = loopbacks()
            guard let found = present.first(where: { $0.label == label }) else {
                throw V4L2LoopbackError.noDeviceLabelled(label, present: present.map(\.label))
            }
            return found.path
        }
    }

    /// Resolves `target` and opens its node for writing: `busy` when the driver refuses a second opener
    /// (`EBUSY`), `noSuchDevice` when the node went meanwhile.
    public func open(_ target: Target) throws -> V4L2LoopbackNode {
        let path = try resolve(target)
        do {
            return try V4L2LoopbackNode(path: path)
        } catch let error as V4L2Error {
            switch error.errnoCode {
            case EBUSY: throw V4L2LoopbackError.busy(device: path, card: "")
            case ENOENT: throw V4L2LoopbackError.noSuchDevice(path)
            default: throw V4L2LoopbackError.device(error)
            }
        }
    }
}

extension V4L2LoopbackFinder {
    /// What `pausecam doctor` says of `target`: opens it, asks QUERYCAP whether it is a loopback that takes a
    /// writer now, and closes it again; nothing is written.
    public func examine(_ target: Target) -> DoctorFacts.Webcam {
        let outcome: DoctorFacts.Webcam.Outcome
        do {
            let node = try open(target)
            defer { node.close() }
            let capability: V4L2Capability
            do {
                capability = try node.queryCapability()
            } catch let error as V4L2Error {
                throw V4L2LoopbackError.device(error)
            }
            guard capability.isLoopback else {
                throw V4L2LoopbackError.notLoopback(device: node.path, driver: capability.driver, card: capability.card)
            }
            guard capability.canOutput else { throw V4L2LoopbackError.busy(device: node.path, card: capability.card) }
            outcome = .ready(device: node.path, card: capability.card)
        } catch let error as V4L2LoopbackError {
            outcome = .unusable(problem: error.problem, fixes: error.fixes)
        } catch {
            outcome = .unusable(problem: "\(error)", fixes: [])
        }
        return DoctorFacts.Webcam(target: target.description, outcome: outcome)
    }
}

extension V4L2LoopbackFinder.Target {
    /// The rig's `live: webcam:` as the finder takes it.
    public init(_ webcam: Rig.Live.Webcam) {
        switch webcam {
        case .device(let path): self = .device(path)
        case .label(let label): self = .label(label)
        }
    }
}

extension V4L2PixelFormat {
    /// The rig's `live: webcam: format:` as the device is told it.
    public init(_ format: Rig.Live.WebcamFormat) {
        switch format {
        case .i420: self = .yuv420
        case .yuyv: self = .yuyv
        }
    }
}
