/// One USB bus: a root hub (`usbN`) and the periodic budget every device below it shares. An xHCI controller
/// has two: a USB 2.0 bus for high-, full- and low-speed devices and a SuperSpeed bus, each with its own budget, so
/// the plan counts per bus; `controller` says which buses are the same chip (its PCI address), which matters for
/// advice (a USB 2.0 camera moved to the SuperSpeed bus's sibling ports lands on the same USB 2.0 bus).
public struct USBBus: Sendable, Equatable {
    /// The bus number (`busnum`), the `N` of `usbN`.
    public var number: Int
    /// The root hub's speed: the bus's budget.
    public var speed: USBSpeed
    /// The host controller the root hub belongs to (its sysfs name, e.g. the PCI address `0000:00:14.0`), when known.
    public var controller: String?

    public init(number: Int, speed: USBSpeed, controller: String? = nil) {
        self.number = number
        self.speed = speed
        self.controller = controller
    }

    /// "bus 1 (USB 2.0 high speed, controller 0000:00:14.0)".
    public var description: String {
        "bus \(number) (\(speed.name)" + (controller.map { ", controller \($0)" } ?? "") + ")"
    }
}
