import Foundation
import PauseCamCore
import XCTest

/// The free space a recording keeps for finishing follows how each movie is finished: a mov finished in place needs
/// only its new index, so a clip that fits without a copy's room records to its end; an mkv is copied, so the clip
/// keeps room for its largest copy — an ISO's, when the ISO is the largest movie.
///
/// Each test records the clip once on the ordinary disk to learn its movies' sizes, then again on a tmpfs sized
/// from them, with the stop threshold a fraction of the largest movie.
extension DiskFullEndToEndTests {
    func testAMovClipThatFitsWithoutACopysRoomRecordsToItsEnd() throws {
        let rig = try Self.reserveRig(container: "mov", programSize: "1280x720", isoLens: ("tele", "320x180"))
        let sizes = try Self.calibrate(rig: rig)
        let program = try XCTUnwrap(sizes.first { $0.key.hasSuffix(".mov") && !$0.key.contains(".iso/") }).value
        let total = sizes.values.reduce(0, +)
        // Room for every movie and 60 % of the program more; stopping below 20 % of it. A copy's reserve (the
        // program's size again) would stop the clip half way; the in-place index leaves about 60 % spare.
        let disk = try mountTinyDisk(size: "\(total + program * 6 / 10)")
        let threshold = "\(program / 5)"
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "run", rig.path, "--script", "clip", "--clock", "simulated", "--output", disk.path,
        ], environment: ["PAUSECAM_DISK_WARN_BYTES": threshold, "PAUSECAM_DISK_STOP_BYTES": threshold])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertFalse(result.stderr.contains("disk is nearly full"), result.stderr)
        XCTAssertFalse(result.stderr.contains("disk is almost full"), result.stderr)
        let movie = try XCTUnwrap(try Self.files(in: disk).first { $0.hasSuffix(".mov") && !$0.contains(".iso/") })
        XCTAssertEqual(try MediaProbe(path: disk.appendingPathComponent(movie).path).duration(), 20, accuracy: 0.05)
        XCTAssertFalse(try Self.files(in: disk).contains { $0.hasSuffix(".partial") }, "every movie is finished")
    }

    func testAnMkvClipKeepsRoomToCopyItsLargestMovieAnIso() throws {
        let rig = try Self.reserveRig(container: "mkv", programSize: "320x180", isoLens: ("wide", "1280x720"))
        let sizes = try Self.calibrate(rig: rig)
        let iso = try XCTUnwrap(sizes.first { $0.key.hasSuffix(".iso/wide.mkv") }).value
        let total = sizes.values.reduce(0, +)
        // Recorded to its end the clip leaves 85 % of the ISO free: the program's copy fits, the ISO's does not.
        // Keeping room for the ISO's copy stops the clip while both copies still fit. The stop threshold is wide
        // (60 % of the ISO): the Matroska muxer holds up to a cluster (2 s) before the file grows, and a check
        // comes every 2 s.
        let disk = try mountTinyDisk(size: "\(total + iso * 85 / 100)")
        let threshold = "\(iso * 6 / 10)"
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "run", rig.path, "--script", "clip", "--clock", "simulated", "--output", disk.path,
        ], environment: ["PAUSECAM_DISK_WARN_BYTES": threshold, "PAUSECAM_DISK_STOP_BYTES": threshold])
        XCTAssertTrue(result.stderr.contains("stopping and saving the clip"), result.stderr)
        let names = try Self.files(in: disk)
        XCTAssertFalse(names.contains { $0.hasSuffix(".partial") }, "every movie is finished: \(names)")
        XCTAssertFalse(result.stderr.contains("could not be finished"), result.stderr)
        let sidecarName = try XCTUnwrap(names.first { $0.hasSuffix(".json") })
        let sidecar = try Sidecar.decode(Data(contentsOf: disk.appendingPathComponent(sidecarName)))
        XCTAssertFalse(sidecar.warnings.contains { $0.contains("could not be finished") }, "\(sidecar.warnings)")
        XCTAssertLessThan(sidecar.duration, 19.9, "stopped before the script's end")
        let isoName = try XCTUnwrap(names.first { $0.hasSuffix(".iso/wide.mkv") }, "\(names)")
        XCTAssertEqual(try MediaProbe(path: disk.appendingPathComponent(isoName).path).duration(), sidecar.duration,
                       accuracy: 0.05)
    }

    /// A 20-second clip with one ISO lens, at crf 0 so that its movies are megabytes, not the index's kilobytes.
    static func reserveRig(container: String, programSize: String, isoLens: (role: String, size: String)) throws -> URL {
        let directory = try ProcessRunner.temporaryDirectory("reserve-rig")
        let main = isoLens.role == "tele" ? programSize : "320x180"
        let rig = """
        name: Reserve
        output: {name: "{rig}", size: \(programSize), fps: 30, container: \(container), \
        video: {preset: ultrafast, crf: 0}, iso: [\(isoLens.role)]}
        audio: {device: virtual}
        lenses:
          main: {zoom: 1, virtual: {color: "#20c040"}, size: \(main), fps: 30}
          \(isoLens.role): {zoom: \(isoLens.role == "tele" ? 3 : 0.5), virtual: {color: "#3050e0"}, size: \(isoLens.size), fps: 30}
        default_lens: main
        scripts:
          clip:
            - record
            - wait: 20s
            - stop
        """
        let path = directory.appendingPathComponent("reserve.yaml")
        try rig.write(to: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Records `rig`'s clip on the ordinary disk: every file it leaves (relative path) and its size.
    static func calibrate(rig: URL) throws -> [String: Int] {
        let out = try ProcessRunner.temporaryDirectory("reserve-sizes")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "run", rig.path, "--script", "clip", "--clock", "simulated", "--output", out.path,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        var sizes: [String: Int] = [:]
        for name in try files(in: out) {
            let attributes = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(name).path)
            sizes[name] = (attributes[.size] as? NSNumber)?.intValue ?? 0
        }
        return sizes
    }

    /// The files under `folder`, as paths relative to it.
    static func files(in folder: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { name in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory)
            return !isDirectory.boolValue
        }
    }
}
