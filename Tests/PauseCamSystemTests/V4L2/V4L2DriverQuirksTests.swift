import CV4L2
import Foundation
import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// What a buggy or odd driver may report, and the flags, bits and open mode the node wrapper uses.
final class V4L2DriverQuirksTests: XCTestCase {
    func cameraWithBias(minimum: Int32, maximum: Int32, items: [V4L2MenuItem]) -> V4L2FakeDevice {
        let device = V4L2FakeDevice(modes: [])
        for (control, type, low, high) in [(V4L2ControlID.exposureAuto, V4L2ControlInfo.Kind.menu, Int32(0), Int32(3)),
                                           (.autoExposureBias, .integerMenu, minimum, maximum)] {
            device.controls[control.id] = V4L2ControlInfo(id: control.id, name: "\(control)", type: type,
                                                          minimum: low, maximum: high, defaultValue: low)
        }
        device.menus[V4L2ControlID.autoExposureBias.id] = items
        return device
    }

    func biasWrites(_ device: V4L2FakeDevice) -> [Int32] {
        device.controlWrites.filter { $0.0 == V4L2ControlID.autoExposureBias.id }.map(\.1)
    }

    /// A driver whose integer menu says maximum < minimum: `UInt32(min)...UInt32(max)` trapped (a crash of the
    /// whole recorder on an exposure preset). Now the menu is empty and nothing is set.
    func testAnExposureBiasMenuWithMaximumBelowMinimumIsIgnoredNotATrap() {
        let device = cameraWithBias(minimum: 3, maximum: 1, items: [V4L2MenuItem(index: 1, value: 0)])
        let controls = V4L2Controls(device: device, cameraName: "cam") { _ in }
        controls.apply(.bias(0.5))
        XCTAssertEqual(biasWrites(device), [])
    }

    /// A driver that reports 0…Int32.max menu items was asked two billion times (hours); now at most
    /// `menuItemLimit` queries are made per menu read and such a menu is skipped.
    func testAHugeMenuRangeIsNotWalked() {
        let device = cameraWithBias(minimum: 0, maximum: Int32.max, items: [V4L2MenuItem(index: 0, value: 0)])
        let controls = V4L2Controls(device: device, cameraName: "cam") { _ in }
        controls.apply(.bias(0.5))
        XCTAssertLessThanOrEqual(device.menuQueries, Int(V4L2Controls.menuItemLimit) * 2)
    }

    /// Integer-menu values at the ends of Int64 do not overflow the distance.
    func testIntegerMenuValuesAtTheEndsOfInt64PickTheNearest() {
        let device = cameraWithBias(minimum: 0, maximum: 2, items: [V4L2MenuItem(index: 0, value: Int64.min),
                                                                     V4L2MenuItem(index: 1, value: 1000),
                                                                     V4L2MenuItem(index: 2, value: Int64.max)])
        let controls = V4L2Controls(device: device, cameraName: "cam") { _ in }
        controls.apply(.bias(1))
        XCTAssertEqual(biasWrites(device), [1])
    }

    /// Flag bits and menu values are the kernel's constants, not copies of them.
    func testFlagsAndMenuValuesAreTheKernelConstants() {
        XCTAssertEqual(V4L2Capability.Flags.videoCapture.rawValue, UInt32(V4L2_CAP_VIDEO_CAPTURE))
        XCTAssertEqual(V4L2Capability.Flags.streaming.rawValue, UInt32(V4L2_CAP_STREAMING))
        XCTAssertEqual(V4L2Capability.Flags.metaCapture.rawValue, UInt32(V4L2_CAP_META_CAPTURE))
        XCTAssertEqual(V4L2Capability.Flags.deviceCaps.rawValue, UInt32(V4L2_CAP_DEVICE_CAPS))
        XCTAssertEqual(V4L2DequeuedBuffer.Flags.error.rawValue, UInt32(V4L2_BUF_FLAG_ERROR))
        XCTAssertEqual(V4L2DequeuedBuffer.Flags.timestampMonotonic.rawValue,
                       UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC))
        XCTAssertEqual(V4L2DequeuedBuffer.Flags.timestampMask.rawValue, UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK))
        XCTAssertEqual(V4L2ControlID.ExposureMode.auto.rawValue, Int32(V4L2_EXPOSURE_AUTO.rawValue))
        XCTAssertEqual(V4L2ControlID.ExposureMode.manual.rawValue, Int32(V4L2_EXPOSURE_MANUAL.rawValue))
        XCTAssertEqual(V4L2ControlID.ExposureMode.shutterPriority.rawValue,
                       Int32(V4L2_EXPOSURE_SHUTTER_PRIORITY.rawValue))
        XCTAssertEqual(V4L2ControlID.ExposureMode.aperturePriority.rawValue,
                       Int32(V4L2_EXPOSURE_APERTURE_PRIORITY.rawValue))
        XCTAssertEqual(V4L2ControlInfo.Kind.integer.rawValue, V4L2_CTRL_TYPE_INTEGER.rawValue)
        XCTAssertEqual(V4L2ControlInfo.Kind.menu.rawValue, V4L2_CTRL_TYPE_MENU.rawValue)
        XCTAssertEqual(V4L2ControlInfo.Kind.integerMenu.rawValue, V4L2_CTRL_TYPE_INTEGER_MENU.rawValue)
    }

    /// Every node is opened close-on-exec, through libv4l2 as well as directly (it was not, through libv4l2, so a
    /// program PauseCam started kept the camera open and busy). The libv4l2 path needs a real V4L2 node, so the
    /// flags are checked; the kernel path is checked on a real descriptor.
    func testNodesAreOpenedCloseOnExec() throws {
        XCTAssertEqual(V4L2DeviceNode.openFlags & O_CLOEXEC, O_CLOEXEC)
        let node = try V4L2DeviceNode(path: "/dev/null", access: .kernel)
        defer { node.close() }
        XCTAssertEqual(fcntl(node.openDescriptor, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC)
    }

    /// A `close()` while the capture thread waits in `poll` must not free the descriptor's number for reuse (an
    /// ioctl or the next poll would reach whatever file got it): the close is left to the poll's return. The old
    /// code read the descriptor outside its lock and closed it under the poll.
    func testACloseDuringAPollWaitsForThePollToReturn() throws {
        let fifo = NSTemporaryDirectory() + "pausecam-v4l2-poll-\(UUID().uuidString)"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        let node = try V4L2DeviceNode(path: fifo, access: .kernel)
        let fd = node.openDescriptor
        let writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(writer, 0)
        defer { close(writer) }
        let returned = expectation(description: "poll returned")
        let box = PollResultBox()
        Thread.detachNewThread {
            box.set(Result { try node.waitForFrame(timeoutMilliseconds: 60_000) })
            returned.fulfill()
        }
        let deadline = Date(timeIntervalSinceNow: 30)
        while node.pollsInProgress == 0 && Date() < deadline { usleep(1_000) }
        XCTAssertEqual(node.pollsInProgress, 1, "the waiting thread is in poll")
        node.close()
        XCTAssertEqual(node.openDescriptor, -1, "closed for every new call")
        XCTAssertNotEqual(fcntl(fd, F_GETFD), -1, "but the number stays taken while poll uses it")
        var byte: UInt8 = 1
        XCTAssertEqual(write(writer, &byte, 1), 1)
        wait(for: [returned], timeout: 30)
        XCTAssertEqual(try box.get()?.get(), true)
        XCTAssertEqual(fcntl(fd, F_GETFD), -1, "closed once the poll returned")
        XCTAssertEqual(errno, EBADF)
        XCTAssertThrowsError(try node.waitForFrame(timeoutMilliseconds: 0), "a closed node cannot be polled")
    }
}

/// The result of a call made on another thread.
final class PollResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Bool, Error>?
    func set(_ value: Result<Bool, Error>) { lock.withLock { result = value } }
    func get() -> Result<Bool, Error>? { lock.withLock { result } }
}

/// The tests' view of a node's state (reached through `@testable import`; the node keeps no accessor for them).
private extension V4L2DeviceNode {
    /// Threads in `poll` now.
    var pollsInProgress: Int { node.withLock { $0.pollers } }
    /// The open descriptor, -1 once closed.
    var openDescriptor: Int32 { node.withLock { $0.descriptor?.rawValue ?? -1 } }
}
