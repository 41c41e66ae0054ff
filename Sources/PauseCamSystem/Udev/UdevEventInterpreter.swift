import PauseCamCore

/// Turns udev actions on `video4linux` nodes into `DeviceEvent`s — a state machine that remembers the identity
/// each present camera was announced with, so a removal (whose sysfs attributes are gone) is reported with the
/// very identity its attach had, and a re-plug announces the same identity again.
///
/// - `add` of a capture node → attached (a repeated add of the same identity is ignored);
/// - `change` → nothing if the identity is unchanged, else detached(old) + attached(new), or attached when the
///   node just became a capture node;
/// - `remove` → detached with the remembered identity (or the one read from the event's properties);
/// - anything about a node that is not a capture node (a UVC metadata node) → nothing;
/// - after lost events (the monitor's `ENOBUFS`), a fresh enumeration → detached for every remembered camera that
///   is gone or changed, then attached for every camera that is new or changed (`resynchronize`).
public struct UdevEventInterpreter: Sendable {
    /// Present cameras by device node.
    public private(set) var present: [String: CameraIdentity] = [:]

    public init() {}

    /// Records the cameras of an enumeration, so later removals report them with the same identity.
    public mutating func seed(_ cameras: [CameraIdentity]) {
        present = Dictionary(cameras.map { ($0.devicePath, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The events for one udev action on `devicePath`. `identity` is `nil` when the node is not a capture node.
    public mutating func handle(action: String, devicePath: String, identity: CameraIdentity?) -> [DeviceEvent] {
        switch action {
        case "add", "bind", "change":
            let old = present[devicePath]
            guard let identity else {
                if let old, action == "change" {
                    present[devicePath] = nil
                    return [.detached(old)]
                }
                return []
            }
            if old == identity { return [] }
            present[devicePath] = identity
            return (old.map { [DeviceEvent.detached($0)] } ?? []) + [.attached(identity)]
        case "remove", "unbind":
            if let old = present.removeValue(forKey: devicePath) { return [.detached(old)] }
            return identity.map { [.detached($0)] } ?? []
        default:
            return []
        }
    }

    /// The events that bring what was announced in line with `cameras`, a fresh enumeration: used when the monitor
    /// lost events, so an add or remove missed in the overflow is still reported. Detaches come first (a node
    /// re-used by another camera is freed before it is taken), each group in device-node order.
    public mutating func resynchronize(with cameras: [CameraIdentity]) -> [DeviceEvent] {
        let now = Dictionary(cameras.map { ($0.devicePath, $0) }, uniquingKeysWith: { _, last in last })
        let gone = present.filter { now[$0.key] != $0.value }.sorted { $0.key < $1.key }
        let new = now.filter { present[$0.key] != $0.value }.sorted { $0.key < $1.key }
        present = now
        return gone.map { .detached($0.value) } + new.map { .attached($0.value) }
    }
}
