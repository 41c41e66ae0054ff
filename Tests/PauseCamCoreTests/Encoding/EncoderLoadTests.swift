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
}
