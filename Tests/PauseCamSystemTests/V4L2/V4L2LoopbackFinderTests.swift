import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// Finding the webcam's loopback device in a sysfs of the test's own (a folder laid out as /sys is): the module
/// missing, a label, a node that does not exist, a camera's node beside a loopback, and what doctor says of each.
final class V4L2LoopbackFinderTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "loopback-finder-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/sys/class/video4linux", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/dev", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    private var finder: V4L2LoopbackFinder { V4L2LoopbackFinder(sysfsRoot: root + "/sys", deviceRoot: root + "/dev") }

    private func loadModule() throws {
        try FileManager.default.createDirectory(atPath: root + "/sys/module/v4l2loopback", withIntermediateDirectories: true)
    }

    /// A video4linux entry as the kernel makes it: the class entry links to the device's folder (under
    /// `devices/virtual` for a loopback, under its bus for a camera), which holds `name`; and a node in /dev.
    private func addNode(_ entry: String, name: String, virtual: Bool) throws {
        let folder = virtual ? "devices/virtual/video4linux/\(entry)"
                             : "devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/video4linux/\(entry)"
        try FileManager.default.createDirectory(atPath: root + "/sys/" + folder, withIntermediateDirectories: true)
        try (name + "\n").write(toFile: root + "/sys/\(folder)/name", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/sys/class/video4linux/\(entry)",
                                                   withDestinationPath: "../../\(folder)")
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/dev/\(entry)", contents: Data()))
    }

    func testWithoutTheModuleEveryTargetSaysHowToLoadIt() {
        for target in [V4L2LoopbackFinder.Target.device("/dev/video10"), .label("PauseCam")] {
            XCTAssertThrowsError(try finder.resolve(target)) { error in
                XCTAssertEqual(error as? V4L2LoopbackError, .moduleNotLoaded)
                let text = "\(error)"
                XCTAssertTrue(text.contains("sudo modprobe v4l2loopback devices=1 exclusive_caps=1 card_label=\"PauseCam\""),
                              text)
                XCTAssertTrue(text.contains("sudo apt install v4l2loopback-dkms"), text)
            }
        }
    }

    func testALabelFindsTheLoopbackAndNeverACamera() throws {
        try loadModule()
        try addNode("video0", name: "PauseCam", virtual: false)  // a camera that happens to carry the name
        try addNode("video2", name: "OBS Cam", virtual: true)
        try addNode("video10", name: "PauseCam", virtual: true)
        XCTAssertEqual(finder.loopbacks(), [.init(path: root + "/dev/video2", label: "OBS Cam"),
                                            .init(path: root + "/dev/video10", label: "PauseCam")])
        XCTAssertEqual(try finder.resolve(.label("PauseCam")), root + "/dev/video10")
    }

    func testAnUnknownLabelListsTheLabelsPresent() throws {
        try loadModule()
        try addNode("video10", name: "OBS Cam", virtual: true)
        XCTAssertThrowsError(try finder.resolve(.label("PauseCam"))) { error in
            XCTAssertEqual(error as? V4L2LoopbackError, .noDeviceLabelled("PauseCam", present: ["OBS Cam"]))
            XCTAssertTrue("\(error)".contains("card_label=\"PauseCam\""), "\(error)")
        }
    }

    func testANodeThatDoesNotExistIsNamed() throws {
        try loadModule()
        let missing = root + "/dev/video77"
        XCTAssertThrowsError(try finder.resolve(.device(missing))) { error in
            XCTAssertEqual(error as? V4L2LoopbackError, .noSuchDevice(missing))
            XCTAssertTrue("\(error)".contains("v4l2-ctl --list-devices"), "\(error)")
        }
    }

    func testDoctorReportsTheMissingModuleWithTheCommand() {
        let webcam = finder.examine(.label("PauseCam"))
        XCTAssertEqual(webcam.target, "label \"PauseCam\"")
        guard case .unusable(let problem, let fixes) = webcam.outcome else { return XCTFail("\(webcam)") }
        XCTAssertEqual(problem, "the v4l2loopback kernel module is not loaded")
        XCTAssertTrue(fixes.joined().contains("modprobe v4l2loopback"), "\(fixes)")
    }

    func testDoctorReportsANodeThatIsNoVideoDevice() throws {
        try loadModule()
        try addNode("video10", name: "PauseCam", virtual: true)
        // The node is a plain file here: it opens, and QUERYCAP fails as on any non-V4L2 file.
        let webcam = finder.examine(.device(root + "/dev/video10"))
        guard case .unusable(let problem, _) = webcam.outcome else { return XCTFail("\(webcam)") }
        XCTAssertTrue(problem.contains("VIDIOC_QUERYCAP"), problem)
    }
}
