import Foundation
import PauseCamCore
import XCTest

/// A switch to a lens whose camera its USB bus refuses for lack of bandwidth, through the built binary: three
/// virtual lenses on a simulated bus with room for two streams (`PAUSECAM_FAULT_USB_STREAMS`). PauseCam stops the
/// hot lens that is not shown, starts the new one again, says which in its log and in the sidecar, and the movie
/// stays constant-rate and whole, on the old lens until the new one's first frame.
final class BandwidthFallbackEndToEndTests: XCTestCase {
    private let rig = """
    name: Bus rig
    output: {name: "{rig}", size: 320x180, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}}
    audio: {device: virtual}
    lenses:
      wide: {zoom: 0.5, virtual: {color: "#d03030"}, size: 320x180}
      main: {zoom: 1, virtual: {color: "#20c040"}, size: 320x180}
      tele: {zoom: 3, virtual: {color: "#3050e0"}, size: 320x180}
    default_lens: main
    scripts:
      switch:
        - record: One
        - wait: 1s
        - lens: tele
        - wait: 1s
        - stop
    """

    func testAFullBusGivesUpTheHotLensNotShownAndTheMovieStaysWhole() throws {
        let directory = try ProcessRunner.temporaryDirectory("bandwidth-fallback")
        let rigPath = directory.appendingPathComponent("bus.yaml")
        try rig.write(to: rigPath, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out")
        // All three lenses are hot: wide and main take the bus's two streams, tele is refused at the start.
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["run", rigPath.path, "--script", "switch", "--clock", "simulated",
                                            "--output", out.path],
                                           environment: ["PAUSECAM_FAULT_USB_STREAMS": "2:wide,main,tele"])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let told = "lens tele's camera could not start: no USB bandwidth left on virtual bus (2 streams); stopped "
            + "lens wide's camera (cold from now on) to make room, and trying again"
        XCTAssertTrue(result.stderr.contains("pausecam: " + told + "\n"), result.stderr)

        let movie = out.appendingPathComponent("bus-rig.mov").path
        let sidecar = try Sidecar.decode(Data(contentsOf: out.appendingPathComponent("bus-rig.json")))
        XCTAssertTrue(sidecar.warnings.contains(told), "\(sidecar.warnings)")
        XCTAssertEqual(sidecar.switches.map(\.lens), ["tele"])
        let effective = try XCTUnwrap(sidecar.switches.first?.effective)
        XCTAssertEqual(effective, 1, accuracy: 2.0 / 30, "tele delivers right after the retry")

        let probe = MediaProbe(path: movie)
        try probe.assertConstantRate(30, 1)
        let frames = try probe.videoFrames()
        XCTAssertEqual(Double(frames.count) / 30, 2, accuracy: 2.0 / 30)
        // main (green) until the switch, tele (blue) after it: never a hole, never wide's red.
        let colors = try probe.regionColors(x: 236, y: 8, width: 30, height: 20)
        XCTAssertEqual(colors.count, frames.count)
        for (index, frame) in frames.enumerated() where index < colors.count && abs(frame.time - effective) > 1.01 / 30 {
            let want = frame.time < effective ? (0x20, 0xc0, 0x40) : (0x30, 0x50, 0xe0)
            let got = colors[index]
            XCTAssertTrue(abs(got.0 - want.0) <= 40 && abs(got.1 - want.1) <= 40 && abs(got.2 - want.2) <= 40,
                          "frame \(index) at \(frame.time): \(got), want \(want)")
        }
    }

    func testAFaultValueThatNamesNoVirtualLensIsAUsageError() throws {
        let directory = try ProcessRunner.temporaryDirectory("bandwidth-fallback-usage")
        let rigPath = directory.appendingPathComponent("bus.yaml")
        try rig.write(to: rigPath, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["run", rigPath.path, "--script", "switch", "--clock", "simulated",
                                            "--output", directory.appendingPathComponent("out").path],
                                           environment: ["PAUSECAM_FAULT_USB_STREAMS": "2:wide,zoom"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("PAUSECAM_FAULT_USB_STREAMS: lens zoom is not a virtual lens of rig "
                                             + "\"Bus rig\"; only virtual lenses go on the simulated bus"), result.stderr)
    }
}
