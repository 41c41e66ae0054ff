import Foundation
import PauseCamCore

/// Finds microphones through libudev's `sound` subsystem: every `cardN` with its identity (model, serial, ID_PATH,
/// USB ids and the USB device it hangs off), so a rig names a microphone by what it is — or by the camera it is
/// built into — rather than by a card number that changes with the order cards are plugged in. Owns its udev
/// context, used by one thread at a time.
public final class UdevSoundCards: Sendable {
    /// libudev's objects are not thread-safe: every enumeration holds this lock.
    private let context: Guarded<UdevContext>

    public init() throws {
        context = Guarded(try UdevContext())
    }

    /// The sound cards present now, by card number.
    public func microphones() throws -> [MicrophoneIdentity] {
        try context.withLock { try $0.devices(subsystem: "sound").compactMap(identity(of:)) }.sorted { $0.card < $1.card }
    }

    /// The card whose identity `rule` picks; throws when none or several do (several: name a serial or path).
    public func microphone(matching rule: Rig.MatchRule) throws -> MicrophoneIdentity {
        let found = try microphones().filter { $0.matches(rule) }
        guard let first = found.first else {
            throw DeviceLookupError("no microphone matches \(rule) (`pausecam devices` lists the microphones)")
        }
        guard found.count == 1 else {
            throw DeviceLookupError("\(found.count) microphones match \(rule) (cards "
                                    + found.map { "\($0.card)" }.joined(separator: ", ") + "); match a serial or path")
        }
        return first
    }

    /// The microphone built into the camera whose node is `cameraNode` (`/dev/video2`): the card on the same USB
    /// device. Throws when the camera is not a USB device or has no sound card.
    public func microphone(ofCameraNode cameraNode: String) throws -> MicrophoneIdentity {
        let usbDevicePath = try context.withLock { context in
            let camera = try context.devices(subsystem: "video4linux").first {
                ($0.deviceNode ?? $0.property("DEVNAME")) == cameraNode
            }
            return camera?.parent(subsystem: "usb", type: "usb_device")?.systemPath
        }
        guard let usb = usbDevicePath else {
            throw DeviceLookupError("the camera \(cameraNode) is not a USB device, so it has no microphone of its own")
        }
        guard let card = try microphones().first(where: { $0.usbDevicePath == usb }) else {
            throw DeviceLookupError("the camera \(cameraNode) has no microphone (no sound card on its USB device)")
        }
        return card
    }

    /// The identity of a `sound` device that is a card (`cardN`); controls, PCMs and timers are not.
    func identity(of device: UdevDevice) -> MicrophoneIdentity? {
        let name = device.systemName
        guard name.hasPrefix("card"), let number = Int(name.dropFirst(4)) else { return nil }
        let properties = device.properties
        func nonEmpty(_ value: String?) -> String? {
            guard let value, !value.isEmpty else { return nil }
            return value
        }
        let usbDevice = device.parent(subsystem: "usb", type: "usb_device")
        let vendor = nonEmpty(properties["ID_VENDOR_ID"]) ?? nonEmpty(usbDevice?.attribute("idVendor"))
        let product = nonEmpty(properties["ID_MODEL_ID"]) ?? nonEmpty(usbDevice?.attribute("idProduct"))
        return MicrophoneIdentity(
            card: number,
            name: nonEmpty(properties["ID_MODEL"]) ?? nonEmpty(device.attribute("id")) ?? name,
            serial: nonEmpty(properties["ID_SERIAL_SHORT"]) ?? nonEmpty(usbDevice?.attribute("serial")),
            path: nonEmpty(properties["ID_PATH"]),
            usb: vendor.flatMap { v in product.map { "\(v):\($0)".lowercased() } },
            usbDevicePath: usbDevice?.systemPath)
    }
}

/// A device a rig names was not found (or not uniquely): the message says which and what to do.
public struct DeviceLookupError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
