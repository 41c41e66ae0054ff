import XCTest
@testable import PauseCamCore

/// The program plus its ISOs against the measured encoder speed: x264 ISOs add their pixels per second, passed-through
/// MJPEG ISOs add nothing; `auto` chooses for the whole load, and a load no preset in effect holds is refused.
final class EncoderLoadTests: XCTestCase {
    /// Measured at 1080p30 (the program), fastest first.
    private func measurement(_ speeds: [(String, Double)]) -> EncoderSpeedMeasurement {
        EncoderSpeedMeasurement(width: 1920, height: 1080, rate: FrameRate(30),
                                samples: speeds.map { .init(preset: $0.0, framesPerSecond: $0.1) })
    }

    private func iso(_ lens: String, _ width: Int, _ height: Int, _ fps: Int32 = 30, mjpeg: Bool = false)
        -> EncoderLoad.IsoMovie {
        .init(lens: lens, width: width, height: height, rate: FrameRate(fps), passesJPEGThrough: mjpeg)
    }

    func testTheRequiredSpeedSumsTheEncodedPixelRatesAtTheProgramsSize() {
        let table: [(isos: [EncoderLoad.IsoMovie], required: Double, line: UInt)] = [
            // The program alone: 1.5 × its rate, exactly what `EncoderPresetChoice` asks.
            ([], 45, #line),
            // A 1080p30 ISO doubles it; a second one triples it.
            ([iso("wide", 1920, 1080)], 90, #line),
            ([iso("wide", 1920, 1080), iso("tele", 1920, 1080)], 135, #line),
            // A 960x540 ISO is a quarter of the pixels: a quarter of the program's need.
            ([iso("wide", 960, 540)], 45 + 11.25, #line),
            // A 60 fps ISO counts twice its pixels.
            ([iso("wide", 1920, 1080, 60)], 45 + 90, #line),
            // MJPEG lenses passed through have no encoder: nothing added, however many.
            ([iso("wide", 1920, 1080, mjpeg: true), iso("tele", 1920, 1080, mjpeg: true)], 45, #line),
            ([iso("wide", 1920, 1080, mjpeg: true), iso("tele", 1280, 720)], 45 + 20, #line),
        ]
        let measured = measurement([("ultrafast", 300)])
        for row in table {
            XCTAssertEqual(EncoderLoad(isos: row.isos).requiredFramesPerSecond(for: measured), row.required,
                           accuracy: 1e-9, line: row.line)
        }
    }

    func testAutoChoosesForTheWholeLoad() {
        let speeds = measurement([("ultrafast", 150), ("superfast", 100), ("veryfast", 60), ("faster", 40)])
        let table: [(isos: [EncoderLoad.IsoMovie], chosen: String, line: UInt)] = [
            ([], "veryfast", #line),
            ([iso("film", 1920, 1080, mjpeg: true)], "veryfast", #line),
            ([iso("wide", 1920, 1080)], "superfast", #line),
            ([iso("wide", 1920, 1080), iso("tele", 1920, 1080)], "ultrafast", #line),
            // Four 1080p ISOs (225 fps needed): nothing holds them; ultrafast, the fastest there is.
            ((1...4).map { iso("l\($0)", 1920, 1080) }, "ultrafast", #line),
        ]
        for row in table {
            XCTAssertEqual(EncoderLoad(isos: row.isos).choose(speeds), row.chosen, line: row.line)
            if row.isos.isEmpty { XCTAssertEqual(EncoderPresetChoice.choose(speeds), row.chosen, line: row.line) }
        }
    }

    func testTwoEncodedIsosOnASlowMachineAreRefusedWithWhatToDo() throws {
        // 1080p30 program at ultrafast 100 fps: the program alone (45) fits, one ISO (90) fits, two (135) do not.
        let speeds = measurement([("ultrafast", 100), ("superfast", 40)])
        let load = EncoderLoad(isos: [iso("wide", 1920, 1080), iso("tele", 1920, 1080), iso("film", 640, 480, mjpeg: true)])
        XCTAssertEqual(load.choose(speeds), "ultrafast")
        let refusal = try XCTUnwrap(load.refusal(at: "ultrafast", in: speeds, presetIsAuto: true))
        for part in ["2 ISOs (wide 1920x1080 at 30 fps, tele 1920x1080 at 30 fps)", "135.0 fps", "100.0 fps",
                     "ISO is refused", "`iso: [wide, film]` fits", "smaller sizes", "MJPEG lenses"] {
            XCTAssertTrue(refusal.contains(part), "\(part) in: \(refusal)")
        }
        XCTAssertFalse(refusal.contains("faster preset"), "auto already took the fastest: \(refusal)")

        // A named preset too slow for them gets the faster preset that holds them.
        let named = try XCTUnwrap(EncoderLoad(isos: [iso("wide", 1920, 1080)])
            .refusal(at: "superfast", in: speeds, presetIsAuto: false))
        XCTAssertTrue(named.contains("use a faster preset (`preset: auto` chooses ultrafast; ultrafast fits)"), named)

        // A named preset too slow even for the program alone: the shorter list is offered at auto's choice.
        let tooSlow = try XCTUnwrap(load.refusal(at: "superfast", in: speeds, presetIsAuto: false))
        XCTAssertTrue(tooSlow.contains("`iso: [wide, film]` fits with `preset: auto`"), tooSlow)
        XCTAssertFalse(tooSlow.contains("use a faster preset"), "ultrafast does not hold both either: \(tooSlow)")
    }

    func testALoadThatFitsOrHasNoEncodedIsoIsNeverRefused() {
        let slow = measurement([("ultrafast", 20)])
        // The program alone too slow is `EncoderPresetChoice.warning`'s business, not a refusal of ISOs.
        XCTAssertNil(EncoderLoad().refusal(at: "ultrafast", in: slow, presetIsAuto: true))
        XCTAssertNil(EncoderLoad(isos: [iso("film", 1920, 1080, mjpeg: true)])
            .refusal(at: "ultrafast", in: slow, presetIsAuto: true))
        XCTAssertNil(EncoderLoad(isos: [iso("wide", 1920, 1080)])
            .refusal(at: "ultrafast", in: measurement([("ultrafast", 90)]), presetIsAuto: true))
        // A preset not measured is slower than the last one measured: it does not hold.
        XCTAssertFalse(EncoderLoad().fits("veryfast", in: measurement([("ultrafast", 300), ("superfast", 40)])))
    }

    func testTheRigsIsosCountAtTheirCamerasFormatsOrWhatTheRigAsks() throws {
        var rig = Rig(name: "R", lenses: [
            Rig.Lens(name: "main", zoom: 1, source: .virtual(color: RGBColor(red: 0, green: 0, blue: 0))),
            Rig.Lens(name: "cam", zoom: 2, source: .virtual(color: RGBColor(red: 0, green: 0, blue: 0))),
            Rig.Lens(name: "film", zoom: 3, source: .file(path: "f.mov", loop: true)),
        ])
        rig.output.iso = ["cam", "film"]
        let formats = ["film": CameraFormat(width: 640, height: 480, rate: FrameRate(25), pixelFormat: .jpeg)]
        let load = EncoderLoad(rig: rig, formats: formats)
        XCTAssertEqual(load.isos, [iso("cam", rig.output.width, rig.output.height),
                                   iso("film", 640, 480, 25, mjpeg: true)])
    }

    /// A live stream at `width`×`height`, 30 fps, to a URL holding a key that must never be shown.
    private func stream(_ name: String, _ width: Int, _ height: Int) throws -> EncoderLoad.LiveStream {
        .init(name: name, url: try StreamURL.parse("rtmp://\(name).example/live/SECRETKEY").get(),
              width: width, height: height, rate: FrameRate(30))
    }

    func testEachLiveStreamAddsItsPixelsAtTheStreamPresetsMeasuredSpeed() throws {
        // 1080p30 program. At veryfast (the streams' own preset) a stream's pixels count as an ISO's; at ultrafast,
        // three times veryfast's speed, each stream costs three times as many ultrafast frames.
        let speeds = measurement([("ultrafast", 300), ("superfast", 150), ("veryfast", 100)])
        let table: [(streams: [EncoderLoad.LiveStream], preset: String, required: Double, line: UInt)] = [
            ([], "veryfast", 45, #line),
            ([try stream("a", 1920, 1080)], "veryfast", 90, #line),
            ([try stream("a", 1920, 1080), try stream("b", 1280, 720)], "veryfast", 90 + 20, #line),
            ([], "ultrafast", 45, #line),
            ([try stream("a", 1920, 1080)], "ultrafast", 45 + 135, #line),
            ([try stream("a", 1920, 1080), try stream("b", 1280, 720)], "ultrafast", 45 + 135 + 60, #line),
        ]
        for row in table {
            XCTAssertEqual(EncoderLoad(streams: row.streams).requiredFramesPerSecond(at: row.preset, in: speeds),
                           row.required, accuracy: 1e-9, line: row.line)
        }
        // Streams add to the ISOs, and the rig-wide choice moves. With veryfast at 80: none → veryfast (45), one
        // 1080p stream → superfast (90 > 80 at veryfast; 45 + 45 × 150 / 80 = 129.4 ≤ 150), two → ultrafast.
        XCTAssertEqual(EncoderLoad(isos: [iso("wide", 1920, 1080)], streams: [try stream("a", 1920, 1080)])
            .requiredFramesPerSecond(at: "veryfast", in: speeds), 135, accuracy: 1e-9)
        let choices = [0, 1, 2].map { count in
            EncoderLoad(streams: (0..<count).map { try! stream("s\($0)", 1920, 1080) })
                .choose(measurement([("ultrafast", 300), ("superfast", 150), ("veryfast", 80)]))
        }
        XCTAssertEqual(choices, ["veryfast", "superfast", "ultrafast"])
    }

    func testAMachineThatHoldsTheProgramButNotAStreamRefusesNamingTheStreamRedacted() throws {
        // The program alone needs 45 fps: veryfast's 60 holds it; with a 1080p stream beside it at veryfast, 90.
        let speeds = measurement([("ultrafast", 100), ("superfast", 70), ("veryfast", 60), ("faster", 30)])
        XCTAssertNil(EncoderLoad().refusal(at: "veryfast", in: speeds, presetIsAuto: false))
        let load = EncoderLoad(streams: [try stream("youtube", 1920, 1080)])
        XCTAssertEqual(load.choose(speeds), "ultrafast")
        XCTAssertFalse(load.fits("ultrafast", in: speeds), "45 + 1.5 × 30 × 100 / 60 = 120 > 100")
        let refusal = try XCTUnwrap(load.refusal(at: "ultrafast", in: speeds, presetIsAuto: true))
        for part in ["1 live stream at x264 preset veryfast (youtube (rtmp://youtube.example/…) 1920x1080 at 30 fps)",
                     "120.0 fps", "100.0 fps", "so live streaming is refused", "fewer destinations"] {
            XCTAssertTrue(refusal.contains(part), "\(part) in: \(refusal)")
        }
        XCTAssertFalse(refusal.contains("SECRETKEY"), refusal)
        XCTAssertFalse(refusal.contains("MJPEG"), "no ISO to pass through: \(refusal)")
        // A stream a quarter of the pixels fits even at veryfast: 45 + 11.25 = 56.25 ≤ 60.
        let small = EncoderLoad(streams: [try stream("youtube", 960, 540)])
        XCTAssertEqual(small.choose(speeds), "veryfast")
        XCTAssertNil(small.refusal(at: "veryfast", in: speeds, presetIsAuto: true))
        // The check line names the stream, redacted, and the verdict.
        let report = load.report(at: "ultrafast", in: speeds)
        XCTAssertTrue(report.contains("  stream youtube (rtmp://youtube.example/…) 1920x1080 at 30 fps: x264 veryfast\n"),
                      report)
        XCTAssertTrue(report.contains("program plus 0 encoded ISOs and 1 live stream need 120.0 fps at the program's "
                                      + "size: do not fit at ultrafast"), report)
        XCTAssertFalse(report.contains("SECRETKEY"), report)
    }

    func testAStreamPresetNotMeasuredDoesNotFit() throws {
        // The measurement stopped at superfast (too slow for the program): veryfast's speed is not known.
        let speeds = measurement([("ultrafast", 300), ("superfast", 40)])
        let load = EncoderLoad(streams: [try stream("a", 320, 180)])
        XCTAssertFalse(load.fits("ultrafast", in: speeds))
        let refusal = try XCTUnwrap(load.refusal(at: "ultrafast", in: speeds, presetIsAuto: true))
        XCTAssertTrue(refusal.contains("a speed that was not measured"), refusal)
    }

    func testTheRigsStreamsCountAtTheirOwnSizeOrTheProgramsAndTheProgramsRate() throws {
        var rig = Rig(name: "R", lenses: [
            Rig.Lens(name: "main", zoom: 1, source: .virtual(color: RGBColor(red: 0, green: 0, blue: 0))),
        ])
        let url = try StreamURL.parse("srt://10.0.0.5:9000?streamid=publish/secret").get()
        rig.live = Rig.Live(streams: [Rig.Live.Stream(url: url, name: "studio"),
                                      Rig.Live.Stream(url: url, name: "small", width: 640, height: 360)])
        let load = EncoderLoad(rig: rig, formats: [:])
        XCTAssertEqual(load.streams, [
            .init(name: "studio", url: url, width: rig.output.width, height: rig.output.height, rate: rig.output.rate),
            .init(name: "small", url: url, width: 640, height: 360, rate: rig.output.rate),
        ])
        XCTAssertEqual(EncoderLoad(rig: Rig(name: "R", lenses: rig.lenses), formats: [:]).streams, [])
    }
}
