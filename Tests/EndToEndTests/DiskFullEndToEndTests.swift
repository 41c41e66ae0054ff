import Foundation
import PauseCamCore
import XCTest

/// A disk that fills up while recording, on a tiny tmpfs: the clip is stopped and saved while there is still room,
/// or — when it fills at once — the `.partial` keeps everything up to then and the message says how to recover it.
final class DiskFullEndToEndTests: XCTestCase {
    private var mountPoint: URL?

    /// Mounts a tmpfs of `size` at a fresh folder; skips (loudly) where mounting is not allowed.
    func mountTinyDisk(size: String) throws -> URL {
        let directory = try ProcessRunner.temporaryDirectory("disk")
        let result = try ProcessRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", directory.path])
        guard result.status == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (needs root and mount rights): \(result.stderr)")
        }
        mountPoint = directory
        return directory
    }

    override func tearDown() {
        if let mountPoint { _ = try? ProcessRunner.run("/bin/umount", [mountPoint.path]) }
        super.tearDown()
    }

    func testAFillingDiskStopsAndSavesTheClipWhileThereIsRoom() throws {
        let disk = try mountTinyDisk(size: "1m")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "run", ProcessRunner.rig("long.yaml"), "--clock", "simulated", "--output", disk.path,
        ], environment: ["PAUSECAM_DISK_WARN_BYTES": "400000", "PAUSECAM_DISK_STOP_BYTES": "100000"])
        XCTAssertEqual(result.status, 1, "the script did not run to its end: \(result.stdoutText)")
        XCTAssertTrue(result.stderr.contains("the disk is almost full"), result.stderr)
        XCTAssertTrue(result.stderr.contains("stopping and saving the clip"), result.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: disk.path)
        XCTAssertFalse(names.contains { $0.hasSuffix(".partial") }, "\(names)")
        let movie = try XCTUnwrap(names.first { $0.hasSuffix(".mov") }, "\(names)")
        let probe = MediaProbe(path: disk.appendingPathComponent(movie).path)
        XCTAssertEqual(try probe.decodeErrors(), "")
        try probe.assertConstantRate(30)
        let sidecar = try Sidecar.decode(Data(contentsOf: disk.appendingPathComponent(
            String(movie.dropLast(4)) + ".json")))
        XCTAssertTrue(sidecar.complete)
        XCTAssertGreaterThan(sidecar.duration, 5)
        XCTAssertLessThan(sidecar.duration, 600)
        XCTAssertEqual(try probe.duration(), sidecar.duration, accuracy: 0.05)
        XCTAssertTrue(sidecar.warnings.contains { $0.contains("disk is nearly full") }, "\(sidecar.warnings)")
    }

    func testADiskFullAtOnceKeepsThePartialAndSaysHowToRecoverIt() throws {
        let disk = try mountTinyDisk(size: "40k")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "run", ProcessRunner.rig("long.yaml"), "--clock", "simulated", "--output", disk.path,
        ], environment: ["PAUSECAM_DISK_WARN_BYTES": "0", "PAUSECAM_DISK_STOP_BYTES": "0",
                         // Finished in place, the clip needs only its index and is saved; the copy needs the
                         // movie's size again and fails, which is the failure these tests are about.
                         "PAUSECAM_FINISH_BY_COPY": "1"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("No space left on device"), result.stderr)
        XCTAssertTrue(result.stderr.contains("-map 0:v -map '0:a?' -c copy"), result.stderr)
        XCTAssertTrue(result.stdoutText.contains("the clip was not finished"), result.stdoutText)
        let names = try FileManager.default.contentsOfDirectory(atPath: disk.path)
        let partial = try XCTUnwrap(names.first { $0.hasSuffix(".mov.partial") }, "\(names)")
        let frames = try MediaProbe(path: disk.appendingPathComponent(partial).path).videoFrames()
        XCTAssertGreaterThan(frames.count, 30, "the partial keeps what was written before the disk filled")
    }

    /// A disk that fills all at once while the program and two ISOs record: the write that fails leaves part of a
    /// fragment behind, which some readers refuse; every `.partial` is cut back to its last whole fragment, so each
    /// is a whole run of boxes that decodes without error, and the message names every one of them, and says that
    /// the sidecar (which cannot be written on the full disk either) shows the clip as of its last write.
    func testADiskFilledAtOnceLeavesEveryPartialWholeAndTheMessageNamesEachOne() throws {
        let disk = try mountTinyDisk(size: "8m")
        let folder = try ProcessRunner.temporaryDirectory("disk-full-isos")
        let rig = folder.appendingPathComponent("isos.yaml")
        try """
            name: Isos
            output: {name: "{rig}", size: 1280x720, fps: 30, video: {preset: ultrafast}, iso: true}
            audio: {device: virtual}
            lenses:
              main: {zoom: 1, virtual: {color: "#20c040"}, size: 1280x720, fps: 30}
              tele: {zoom: 3, virtual: {color: "#3050e0"}, size: 1280x720, fps: 30}

            """.write(to: rig, atomically: true, encoding: .utf8)
        let shell = try RunningCommand(["shell", rig.path, "--clock", "simulated", "--output", disk.path],
                                       environment: ["PAUSECAM_DISK_WARN_BYTES": "0", "PAUSECAM_DISK_STOP_BYTES": "0"],
                                       keepInputOpen: true)
        shell.send("record A")
        shell.send("wait 1.3s")
        XCTAssertTrue(shell.waitFor("waited 00:00:01.3"), shell.stdout + shell.stderr)
        // The disk fills at once, between two of the health check's looks.
        XCTAssertTrue(FileManager.default.createFile(atPath: disk.path + "/filler", contents: nil))
        let filler = try FileHandle(forWritingTo: disk.appendingPathComponent("filler"))
        let block = Data(count: 1 << 16)
        while (try? filler.write(contentsOf: block)) != nil {}
        try? filler.close()
        shell.send("wait 3s")
        shell.send("stop")
        shell.closeInput()
        XCTAssertEqual(shell.waitForExit(seconds: 120), 1, shell.stdout + shell.stderr)
        let output = shell.stdout + shell.stderr
        let partials = [disk.path + "/isos.mov.partial", disk.path + "/isos.iso/main.mov.partial",
                        disk.path + "/isos.iso/tele.mov.partial"]
        XCTAssertTrue(output.contains("No space left on device"), output)
        XCTAssertTrue(output.contains("Everything recorded up to then is in 3 files that play as they are: "
                                      + "\(partials[0]), and the ISOs' \(partials[1]), \(partials[2])."), output)
        XCTAssertTrue(output.contains("the sidecar \(disk.path)/isos.json could not be brought up to date either"),
                      output)
        for partial in partials {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: partial))
            XCTAssertEqual(Self.wholeBoxesEnd(bytes), bytes.count, "\(partial) ends in a torn box")
            XCTAssertEqual(try MediaProbe(path: partial).decodeErrors(), "", partial)
            XCTAssertGreaterThan(try MediaProbe(path: partial).videoFrames().count, 0, partial)
        }
    }

    /// Where the run of whole top-level boxes of `bytes` ends (`bytes.count` when the last box is whole).
    static func wholeBoxesEnd(_ bytes: Data) -> Int {
        var offset = 0
        while offset + 8 <= bytes.count {
            let header = bytes[bytes.startIndex + offset ..< bytes.startIndex + offset + 8]
            var size = header.prefix(4).reduce(0) { $0 << 8 | Int($1) }
            if size == 1, offset + 16 <= bytes.count {
                size = bytes[bytes.startIndex + offset + 8 ..< bytes.startIndex + offset + 16].reduce(0) { $0 << 8 | Int($1) }
            }
            if size == 0 { size = bytes.count - offset }
            guard size >= 8, offset + size <= bytes.count else { return offset }
            offset += size
        }
        return offset
    }

    func testThePrintedRecoveryCommandQuotesAHostileNameAndWorksWithoutAudio() throws {
        let disk = try mountTinyDisk(size: "40k")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "run", ProcessRunner.rig("e2e-hostile-name.yaml"), "--clock", "simulated", "--output", disk.path,
        ], environment: ["PAUSECAM_DISK_WARN_BYTES": "0", "PAUSECAM_DISK_STOP_BYTES": "0",
                         // Finished in place, the clip needs only its index and is saved; the copy needs the
                         // movie's size again and fails, which is the failure these tests are about.
                         "PAUSECAM_FINISH_BY_COPY": "1"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let marker = "To make a normal movie of it once there is room: "
        let line = try XCTUnwrap(result.stderr.split(separator: "\n").first { $0.contains(marker) }, result.stderr)
        let command = String(line[line.range(of: marker)!.upperBound...])
        let names = try FileManager.default.contentsOfDirectory(atPath: disk.path)
        let partial = try XCTUnwrap(names.first { $0.hasSuffix(".mov.partial") }, "\(names)")
        XCTAssertTrue(partial.hasPrefix("it's $(touch pwned) "), partial)

        // Make room, as the message says, then paste the command into a shell whose folder would catch `pwned`.
        let grown = try ProcessRunner.run("/bin/mount", ["-o", "remount,size=64m", disk.path])
        XCTAssertEqual(grown.status, 0, grown.stderr)
        let workingFolder = try ProcessRunner.temporaryDirectory("paste")
        XCTAssertTrue(command.hasPrefix("ffmpeg "), command)
        let quiet = "ffmpeg -nostdin -v error " + command.dropFirst("ffmpeg ".count)
        let pasted = try ProcessRunner.run("/bin/bash", ["-c", "cd \"$0\" && \(quiet)", workingFolder.path])
        XCTAssertEqual(pasted.status, 0, "\(command)\n\(pasted.stderr)")
        for folder in [workingFolder.path, disk.path] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/pwned"), "the name ran a command in \(folder)")
        }
        let recovered = disk.appendingPathComponent(String(partial.dropLast(".partial".count))).path
        let probe = MediaProbe(path: recovered)
        XCTAssertEqual(try probe.streams().map(\.codecType), ["video"], "a video-only movie")
        try probe.assertConstantRate(30)
        XCTAssertGreaterThan(try probe.videoFrames().count, 30, "the recovered movie holds what the .partial kept")
    }
}
