import Foundation
import XCTest

/// ISOs on a machine too slow for them, through the built binary: every x264-encoded ISO is one more encoder beside
/// the program's, so `preset: auto` and `check --measure` count them, and a machine that cannot hold the program
/// plus the ISOs refuses them (exit status 2, nothing recorded) rather than dropping program frames. The lenses are
/// `file:` lenses replaying footage made here with the ffmpeg command line: H.264 files are decoded and their ISOs
/// encoded; MJPEG files are passed through (no encoder) and cost nothing. `PAUSECAM_FAULT_ENCODER_FPS` fixes the
/// measured speeds, so the slow machine is the same on every machine; it is judged on the real clock only.
final class IsoEncoderLoadEndToEndTests: XCTestCase {
    /// Two seconds of 320x240 footage at 30 fps in `folder/NAME.mov`, MJPEG or H.264.
    private func footage(_ name: String, mjpeg: Bool, in folder: URL) throws {
        let codec = mjpeg ? ["-c:v", "mjpeg", "-q:v", "3"] : ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
        let result = try ProcessRunner.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i",
                                                                "testsrc=s=320x240:r=30:d=2"] + codec
                                           + [folder.appendingPathComponent("\(name).mov").path])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// A folder with a rig whose ISO lenses (`isos`) replay MJPEG or H.264 footage; returns the rig's path.
    private func rig(mjpeg: Bool, isos: [String] = ["left", "right"], preset: String? = "auto") throws -> URL {
        let folder = try ProcessRunner.temporaryDirectory("iso-load")
        try footage("left", mjpeg: mjpeg, in: folder)
        try footage("right", mjpeg: mjpeg, in: folder)
        let text = """
        name: Iso load
        output: {name: "{rig}", size: 320x240, fps: 30, video: {codec: h264, \(preset.map { "preset: \($0), " } ?? "")crf: 30}, iso: [\(isos.joined(separator: ", "))]}
        audio: {device: virtual}
        lenses:
          main: {zoom: 1, virtual: {color: "#c03020"}, size: 320x240, fps: 30}
          left: {zoom: 2, file: left.mov, loop: true}
          right: {zoom: 3, file: right.mov, loop: true}
        default_lens: main
        scripts:
          take:
            - record: One
            - wait: 1s
            - stop
        """
        let path = folder.appendingPathComponent("iso-load.yaml")
        try text.write(to: path, atomically: true, encoding: .utf8)
        return path
    }

    /// At 320x240 and 30 fps the program alone needs 45 fps: ultrafast's 100 holds it and one ISO (90), not two (135).
    private let slowMachine = "ultrafast=100,superfast=40"

    private func environment(_ speeds: String, cache: URL) -> [String: String] {
        ["XDG_CACHE_HOME": cache.path, "PAUSECAM_FAULT_ENCODER_FPS": speeds]
    }

    private func run(_ rigPath: URL, speeds: String) throws -> (ProcessResult, URL) {
        let out = rigPath.deletingLastPathComponent().appendingPathComponent("out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["run", rigPath.path, "--clock", "real", "--output", out.path],
                                           environment: environment(speeds, cache: rigPath.deletingLastPathComponent()
                                               .appendingPathComponent("cache")))
        return (result, out)
    }

    /// A rig that names no preset gets `auto`, and `check` names the one preset auto takes here: for the program
    /// and its ISO together, never the program's own choice beside another.
    func testARigWithoutAPresetGetsAutoAndCheckNamesItsChoiceOnce() throws {
        let rigPath = try rig(mjpeg: false, isos: ["left"], preset: nil)
        let cache = rigPath.deletingLastPathComponent().appendingPathComponent("cache")
        // The program alone (45 fps needed) would take veryfast; with one encoded ISO (90 needed), superfast.
        let speeds = "ultrafast=900,superfast=300,veryfast=60,faster=40"
        let before = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", rigPath.path],
                                           environment: environment(speeds, cache: cache))
        XCTAssertEqual(before.status, 0, before.stdoutText + before.stderr)
        XCTAssertTrue(before.stdoutText.contains("h264 auto crf 30"), before.stdoutText)
        XCTAssertTrue(before.stdoutText.contains("  preset auto: x264's speed at 320x240 at 30 fps is not measured on "
                                                 + "this machine yet"), before.stdoutText)

        let measured = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", "--measure", rigPath.path],
                                             environment: environment(speeds, cache: cache))
        XCTAssertEqual(measured.status, 0, measured.stdoutText + measured.stderr)
        XCTAssertTrue(measured.stdoutText.contains("  auto chooses: superfast (for the program and 1 encoded ISO "
                                                   + "together)\n"), measured.stdoutText)
        XCTAssertFalse(measured.stdoutText.contains("veryfast\n") || measured.stdoutText.contains("chooses: veryfast"),
                       measured.stdoutText)
        XCTAssertEqual(measured.stdoutText.components(separatedBy: "auto chooses").count, 2, measured.stdoutText)

        let cached = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", rigPath.path],
                                           environment: environment(speeds, cache: cache))
        XCTAssertTrue(cached.stdoutText.contains("  preset auto takes superfast here (for the program and 1 encoded "
                                                 + "ISO together) (cached measurement)\n"), cached.stdoutText)
    }

    /// `doctor` judges the ISOs as `run` does: a rig whose ISOs the measured speed cannot hold is a blocker, with
    /// the fixes, not "can record".
    func testDoctorMakesIsosTheMachineCannotHoldABlocker() throws {
        let encoded = try rig(mjpeg: false)
        let cache = encoded.deletingLastPathComponent().appendingPathComponent("cache")
        let doctor = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["doctor", encoded.path, "--measure", "--output",
                                            encoded.deletingLastPathComponent().appendingPathComponent("out").path],
                                           environment: environment(slowMachine, cache: cache))
        XCTAssertEqual(doctor.status, 1, doctor.stdoutText + doctor.stderr)
        let verdict = try XCTUnwrap(doctor.stdoutText.range(of: "\nVerdict: ").map { String(doctor.stdoutText[$0.lowerBound...]) },
                                    doctor.stdoutText)
        XCTAssertTrue(verdict.contains("this machine cannot encode the program (320x240 at 30 fps) and 2 ISOs"), verdict)
        XCTAssertTrue(verdict.contains("why: `run` and `shell` refuse the rig before recording"), verdict)
        XCTAssertTrue(verdict.contains("fix: record fewer lenses (`iso: [left]` fits)"), verdict)
    }

    func testCheckMeasureRefusesTwoEncodedIsosAndAcceptsTheSameRigWithMJPEGLenses() throws {
        let encoded = try rig(mjpeg: false)
        let refused = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", "--measure", encoded.path],
                                            environment: environment(slowMachine, cache: encoded
                                                .deletingLastPathComponent().appendingPathComponent("cache")))
        XCTAssertEqual(refused.status, 2, refused.stdoutText + refused.stderr)
        XCTAssertTrue(refused.stdoutText.contains("  left 320x240 at 30 fps: x264\n  right 320x240 at 30 fps: x264\n"),
                      refused.stdoutText)
        XCTAssertTrue(refused.stdoutText.contains("program plus 2 encoded ISOs need 135.0 fps at the program's size: "
                                                  + "do not fit at ultrafast"), refused.stdoutText)
        XCTAssertTrue(refused.stderr.contains("\(encoded.path):2:99: this machine cannot encode the program "
                                              + "(320x240 at 30 fps) and 2 ISOs"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("`iso: [left]` fits"), refused.stderr)

        let passedThrough = try rig(mjpeg: true)
        let accepted = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", "--measure", passedThrough.path],
                                             environment: environment(slowMachine, cache: passedThrough
                                                 .deletingLastPathComponent().appendingPathComponent("cache")))
        XCTAssertEqual(accepted.status, 0, accepted.stdoutText + accepted.stderr)
        XCTAssertTrue(accepted.stdoutText.contains("  left 320x240 at 30 fps: MJPEG passed through (no encoder)\n"),
                      accepted.stdoutText)
        XCTAssertTrue(accepted.stdoutText.contains("program plus 0 encoded ISOs need 45.0 fps at the program's size: "
                                                   + "fit at ultrafast"), accepted.stdoutText)
    }

    func testARunWithTwoEncodedIsosIsRefusedBeforeRecordingAndTheMJPEGRigRecordsThem() throws {
        let (refused, refusedOut) = try run(try rig(mjpeg: false), speeds: slowMachine)
        XCTAssertEqual(refused.status, 2, refused.stdoutText + refused.stderr)
        XCTAssertTrue(refused.stderr.contains("so ISO is refused"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: refusedOut.path), "nothing recorded, no folder made")

        let (accepted, acceptedOut) = try run(try rig(mjpeg: true), speeds: slowMachine)
        XCTAssertEqual(accepted.status, 0, accepted.stdoutText + accepted.stderr)
        XCTAssertFalse(accepted.stderr.contains("refused"), accepted.stderr)
        for lens in ["left", "right"] {
            let iso = MediaProbe(path: acceptedOut.appendingPathComponent("iso-load.iso/\(lens).mov").path)
            XCTAssertEqual(try iso.streams().first { $0.codecType == "video" }?.codecName, "mjpeg", lens)
        }
    }

    /// A rig that names its preset is measured once when it has x264 ISOs (without them a named preset never
    /// delays a session), and `shell` refuses it as `run` does, before any command is read.
    func testAShellWithANamedPresetAndEncodedIsosIsMeasuredAndRefused() throws {
        let rigPath = try rig(mjpeg: false, preset: "superfast")
        let folder = rigPath.deletingLastPathComponent()
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", rigPath.path, "--output", folder.appendingPathComponent("out").path],
                                           input: "record x\nstop\n",
                                           environment: environment(slowMachine, cache: folder.appendingPathComponent("cache")))
        XCTAssertEqual(result.status, 2, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stdoutText.contains("measuring encoder speed…"), result.stdoutText)
        XCTAssertTrue(result.stderr.contains("preset superfast to encode 135.0 fps"), result.stderr)
        XCTAssertTrue(result.stderr.contains("`iso: [left]` fits with `preset: auto`"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    /// `auto` chooses for the program plus its x264 ISO: the program alone would get veryfast (60 ≥ 45), with one
    /// 320x240 ISO beside it (90 needed) superfast. The preset that reached x264 is read from the settings it
    /// writes into the stream (`subme=1` is superfast's, `subme=2` veryfast's).
    func testAutoChoosesAFasterPresetSoTheProgramAndItsIsoFitTogether() throws {
        let (result, out) = try run(try rig(mjpeg: false, isos: ["left"]),
                                    speeds: "ultrafast=400,superfast=100,veryfast=60,faster=30")
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let program = try Data(contentsOf: out.appendingPathComponent("iso-load.mov"))
        XCTAssertNotNil(program.range(of: Data("subme=1 ".utf8)), "superfast reaches the program's x264")
        XCTAssertNil(program.range(of: Data("subme=2 ".utf8)))
    }
}
