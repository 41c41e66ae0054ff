import Foundation
import XCTest

/// `pausecam doctor [RIG]` through the binary: every section for the virtual rig with exit 0; exit 1 with the
/// blocker named, why and the fix, for an output folder that cannot be made and for a lens whose camera is absent;
/// and, in the umockdev "usbplan" testbed, the cameras with their USB place and a bus that cannot carry them.
final class DoctorEndToEndTests: XCTestCase {
    /// A cache folder of its own, so no earlier measurement on this machine changes the encoder section.
    private func run(_ arguments: [String], cache: URL) throws -> ProcessResult {
        try ProcessRunner.run(BinaryLocator.pausecam.path, ["doctor"] + arguments,
                              environment: ["XDG_CACHE_HOME": cache.path])
    }

    func testTheVirtualRigCanRecordAndEverySectionIsThere() throws {
        let folder = try ProcessRunner.temporaryDirectory("doctor-virtual")
        let rig = ProcessRunner.rigsFolder.appendingPathComponent("virtual.yaml").path
        let result = try run([rig, "--output", folder.appendingPathComponent("movies").path], cache: folder)
        let text = result.stdoutText
        XCTAssertEqual(result.status, 0, text + result.stderr)
        XCTAssertTrue(text.hasPrefix("pausecam doctor: rig \"Virtual rig\" (\(rig))\n"), text)
        var searchFrom = text.startIndex
        for title in ["Permissions", "Cameras", "Rig lenses", "Microphones", "Disk", "Encoder", "Clock", "Kernel log"] {
            guard let found = text.range(of: "\n\n\(title)\n", range: searchFrom..<text.endIndex) else {
                return XCTFail("no section \(title), or out of order:\n\(text)")
            }
            searchFrom = found.upperBound
        }
        XCTAssertFalse(text.contains("USB bandwidth"), "the virtual rig has no camera to plan:\n\(text)")
        XCTAssertTrue(text.contains("  ok       lens main: virtual\n"), text)
        XCTAssertTrue(text.contains("  ok       the rig's microphone is virtual (sync beeps)\n"), text)
        XCTAssertTrue(text.contains("  ok       output folder \(folder.path)/movies does not exist yet; a session "
                                    + "creates it in \(folder.path), which can be written\n"), text)
        XCTAssertTrue(text.contains("  note     x264's speed at 1280x720 at 30 fps is not measured on this machine yet\n"),
                      text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("movies").path),
                       "doctor creates nothing")
        XCTAssertFalse(text.contains("BLOCKER"), text)
        XCTAssertTrue(text.hasSuffix("\nVerdict: rig \"Virtual rig\" (\(rig)) can record.\n")
                      || text.contains("\nVerdict: rig \"Virtual rig\" (\(rig)) can record ("), text)
    }

    /// A `/dev/kmsg` that hands out bytes forever (`/dev/zero`, `/dev/urandom` bound over it in a mount namespace of
    /// the test's own) is not the kernel's log: doctor says so in its kernel log section and finishes. `timeout`
    /// turns a read that never ends into a failure.
    func testAKernelLogDeviceThatNeverEndsIsNotReadAsTheLog() throws {
        guard getuid() == 0 else { throw XCTSkip("binding a device over /dev/kmsg needs root") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
            throw XCTSkip("/usr/bin/unshare is missing (package util-linux)")
        }
        // `--propagation unchanged`: the default makes `/` private, which fails in a chroot (as in CI's fresh root,
        // whose `/` is no mount point). `/dev` is made private instead, inside the new namespace only, so the bind
        // below never reaches the machine's own `/dev`.
        let unshare = ["/usr/bin/unshare", "-m", "--propagation", "unchanged", "/bin/sh", "-c"]
        let probe = try ProcessRunner.run(unshare[0], Array(unshare.dropFirst()) + ["mount --make-private /dev"])
        guard probe.status == 0 else { throw XCTSkip("no mount namespace with a private /dev here: \(probe.stderr)") }
        let folder = try ProcessRunner.temporaryDirectory("doctor-endless-kmsg")
        let rig = ProcessRunner.rigsFolder.appendingPathComponent("virtual.yaml").path
        for device in ["/dev/zero", "/dev/urandom"] {
            let result = try ProcessRunner.run("/usr/bin/timeout", ["120"] + unshare + [
                "mount --make-private /dev && mount --bind \(device) /dev/kmsg "
                    + "&& exec \"$0\" doctor \"$1\" --output \"$2\"",
                BinaryLocator.pausecam.path, rig, folder.appendingPathComponent("movies").path,
            ], environment: ["XDG_CACHE_HOME": folder.path])
            XCTAssertNotEqual(result.status, 124, "\(device): doctor did not finish in 120 s")
            XCTAssertEqual(result.status, 0, "\(device): " + result.stdoutText + result.stderr)
            XCTAssertTrue(result.stdoutText.contains("\nKernel log\n  note     not readable: /dev/kmsg does not read "
                                                     + "as the kernel's log (it handed out "), result.stdoutText)
        }
    }

    func testAnOutputFolderUnderAFileIsABlockerAndExits1() throws {
        let folder = try ProcessRunner.temporaryDirectory("doctor-unwritable")
        let file = folder.appendingPathComponent("not-a-folder")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        let rig = ProcessRunner.rigsFolder.appendingPathComponent("virtual.yaml").path
        let result = try run([rig, "--output", file.appendingPathComponent("movies").path], cache: folder)
        XCTAssertEqual(result.status, 1, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stdoutText.contains("""
            cannot record: 1 blocker
              1. cannot create the output folder \(file.path)/movies: \(file.path) is a file, not a folder
                 why: nothing can be recorded there
                 fix: choose a folder you can write with --output (or the rig's output.directory)

            """), result.stdoutText)
    }

    func testALensWhoseCameraMatchFindsNothingIsABlockerAndExits1() throws {
        let folder = try ProcessRunner.temporaryDirectory("doctor-no-camera")
        let path = folder.appendingPathComponent("desk.yaml").path
        try """
        name: Desk
        output: {size: 1280x720, fps: 30, directory: "\(folder.path)"}
        audio: {device: none}
        lenses:
          main: {zoom: 1, virtual: {color: "#20c040"}}
          tele: {zoom: 2, match: {serial: "NOT-HERE-0000"}}
        default_lens: main
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try run([path], cache: folder)
        let text = result.stdoutText
        XCTAssertEqual(result.status, 1, text + result.stderr)
        XCTAssertTrue(text.contains("  BLOCKER  lens tele: no camera matches serial \"NOT-HERE-0000\"\n"), text)
        XCTAssertTrue(text.contains("""
            cannot record: 1 blocker
              1. lens tele: no camera matches serial "NOT-HERE-0000"
                 why: the lens would show the "no camera" slate instead of a picture
                 fix: plug its camera in, or correct its `match:`
            """), text)
        XCTAssertTrue(text.contains("  note     lens tele: not planned: not connected;"), "the USB plan section:\n\(text)")
    }

    func testHelpTeachesTheCommand() throws {
        for arguments in [["help", "doctor"], ["doctor", "--help"]] {
            let result = try ProcessRunner.run(BinaryLocator.pausecam.path, arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdoutText.hasPrefix("pausecam doctor [RIG]"), result.stdoutText)
            XCTAssertTrue(result.stdoutText.contains("Kernel log"), result.stdoutText)
        }
        let usage = try ProcessRunner.run(BinaryLocator.pausecam.path, ["doctor", "a.yaml", "b.yaml"])
        XCTAssertEqual(usage.status, 2, usage.stderr)
    }

    func testDoctorShowsWhereEachCameraSitsAndABusThatCannotCarryThemInAUmockdevTestbed() throws {
        try UmockdevScenario.run("usbplan", test: "EndToEndTests.DoctorInsideTestbedTests/testCamerasAndUSBPlan")
    }

    func testDoctorPlansAStandbyAutoRigAsCheckDoesInAUmockdevTestbed() throws {
        try UmockdevScenario.run("usbplan", test: "EndToEndTests.DoctorInsideTestbedTests/testStandbyAutoPlan")
    }
}

/// Runs inside the umockdev "usbplan" testbed (see `USBPlanInsideTestbedTests`); skipped anywhere else. Its video
/// nodes exist in sysfs and udev only, so opening them fails: each lens is planned in the mode it asks.
final class DoctorInsideTestbedTests: XCTestCase {
    func testCamerasAndUSBPlan() throws {
        guard ProcessInfo.processInfo.environment["PAUSECAM_UMOCKDEV_SCENARIO"] == "usbplan" else {
            throw XCTSkip("runs inside the umockdev testbed (DoctorEndToEndTests starts it)")
        }
        let folder = try ProcessRunner.temporaryDirectory("doctor-usbplan")
        let path = folder.appendingPathComponent("desk.yaml").path
        try """
        name: Desk
        output: {size: 1280x720, fps: 30, directory: "\(folder.path)"}
        audio: {device: none}
        lenses:
          wide: {zoom: 1, match: {serial: "AAAA1111"}, format: yuyv, size: 640x480}
          tele: {zoom: 2, match: {serial: "BBBB2222"}, format: yuyv, size: 640x480}
          main: {zoom: 1.5, match: {serial: "CCCC3333"}, format: yuyv, size: 640x480}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["doctor", path],
                                           environment: ["XDG_CACHE_HOME": folder.path])
        let text = result.stdoutText
        XCTAssertEqual(result.status, 1, text + result.stderr)
        // The testbed's nodes have no /dev file, so each camera is also "cannot be opened" (a blocker for a lens).
        XCTAssertTrue(text.contains("/dev/video0 (HD Pro Webcam C920, serial AAAA1111): USB bus 1 port 1-1.1, 480 Mbit/s, "
                                    + "USB 2.00, controller 0000:00:14.0, lens wide;"), text)
        XCTAssertTrue(text.contains("/dev/video6 (HD Pro Webcam C920, serial DDDD4444): USB bus 3 port 3-2, 480 Mbit/s, "
                                    + "USB 2.00, controller 0000:03:00.0;"), text)
        XCTAssertTrue(text.contains("  BLOCKER  bus 1 (USB 2.0 high speed, controller 0000:00:14.0): wide YUYV 640x480@30, "
                                    + "tele YUYV 640x480@30, main YUYV 640x480@30: 442.4 Mbit/s of 384.0 Mbit/s (115 %), "
                                    + "does not fit\n"), text)
        XCTAssertTrue(text.contains("           fix: `format: mjpeg` on lens wide"), text)
        XCTAssertTrue(text.contains("\n  4. bus 1 (USB 2.0 high speed, controller 0000:00:14.0): wide YUYV 640x480@30"),
                      "the bus is in the list of blockers, after the three cameras:\n\(text)")
    }

    /// The same three cameras with `standby: auto`: the bus cannot carry all three streaming, so `check` runs them
    /// cold (two stream at once, during a switch) and so must doctor, where the bus then fits and blocks nothing.
    func testStandbyAutoPlan() throws {
        guard ProcessInfo.processInfo.environment["PAUSECAM_UMOCKDEV_SCENARIO"] == "usbplan" else {
            throw XCTSkip("runs inside the umockdev testbed (DoctorEndToEndTests starts it)")
        }
        let folder = try ProcessRunner.temporaryDirectory("doctor-usbplan-auto")
        let path = folder.appendingPathComponent("desk.yaml").path
        try """
        name: Desk
        output: {size: 1280x720, fps: 30, directory: "\(folder.path)"}
        audio: {device: none}
        standby: auto
        lenses:
          wide: {zoom: 1, match: {serial: "AAAA1111"}, format: yuyv, size: 640x480}
          tele: {zoom: 2, match: {serial: "BBBB2222"}, format: yuyv, size: 640x480}
          main: {zoom: 1.5, match: {serial: "CCCC3333"}, format: yuyv, size: 640x480}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let check = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", path])
        XCTAssertTrue(check.stdoutText.contains("    wide: standby auto: cold ("), check.stdoutText + check.stderr)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["doctor", path],
                                           environment: ["XDG_CACHE_HOME": folder.path])
        let text = result.stdoutText
        let busLine = text.split(separator: "\n").first { $0.contains("bus 1 (USB 2.0 high speed") } ?? ""
        XCTAssertTrue(busLine.hasPrefix("  ok       bus 1 (USB 2.0 high speed, controller 0000:00:14.0): wide YUYV "
                                        + "640x480@30, tele YUYV 640x480@30, main YUYV 640x480@30: 294.9 Mbit/s"),
                      "planned cold, as check plans it:\n\(text)")
        XCTAssertFalse(text.contains("BLOCKER  bus 1"), text)
    }
}
