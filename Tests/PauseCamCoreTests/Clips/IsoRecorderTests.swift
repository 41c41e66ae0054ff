import XCTest
@testable import PauseCamCore

/// `IsoRecorder` through a real `Recorder` with fake sinks: the ISOs get exactly the program's file times, through
/// a pause, whatever their lens delivers — a lens that stalls holds its last picture, one that never delivers shows
/// the slate.
final class IsoRecorderTests: XCTestCase {
    static let d = MediaTime(value: 1, timescale: 30)

    static func frame(_ index: Int64, lens: String, shade: UInt8) -> VideoFrame {
        VideoFrame(pts: try! d.multiplied(by: index), width: 2, height: 2, format: .yuv420p,
                   planes: [Plane(bytes: [shade, 0, 0, 0], stride: 2), Plane(bytes: [0], stride: 1),
                            Plane(bytes: [0], stride: 1)], lens: lens)
    }

    func testIsosFollowTheProgramsFileTimesHoldingAStalledLensAndSlatingASilentOne() throws {
        let program = RecordingSink(path: "/clip.mov")
        let tele = RecordingSink(path: "/clip.iso/tele.mov")
        let wide = RecordingSink(path: "/clip.iso/wide.mov")
        let recorder = Recorder(description: Recorder.Description(
            rigName: "iso", settings: MovieSettings(width: 2, height: 2, rate: FrameRate(30), audio: nil),
            devices: [], sidecarPath: "/clip.json", started: "now"), sink: program, store: MemorySidecarStore())
        recorder.addIso(IsoRecorder(lens: IsoRecorder.Lens(role: "tele", width: 2, height: 2, rate: FrameRate(30)),
                                    sink: tele))
        recorder.addIso(IsoRecorder(lens: IsoRecorder.Lens(role: "wide", width: 4, height: 2, rate: FrameRate(30)),
                                    sink: wide))
        if case .failure(let rejection) = recorder.handle(.record(name: nil), at: .zero) { XCTFail("\(rejection)") }
        for index: Int64 in 0..<90 {
            let time = try Self.d.multiplied(by: index)
            if index == 30, case .failure(let rejection) = recorder.handle(.pause, at: time) { XCTFail("\(rejection)") }
            if index == 45, case .failure(let rejection) = recorder.handle(.resume(name: nil), at: time) {
                XCTFail("\(rejection)")
            }
            // The program's lens, and tele until it stalls at frame 20 (then ahead of the program, as a camera
            // whose frames arrive first would be).
            if index < 20 { recorder.offerIsoFrame(Self.frame(index, lens: "tele", shade: UInt8(index))) }
            let main = Self.frame(index, lens: "main", shade: 200)
            recorder.appendVideo(main)
            recorder.offerIsoFrame(main)
            // The hold timer, as `RigController` runs it: slots older than 0.2 s are decided with the last picture.
            if index % 3 == 0, let before = try? time.subtracting(.milliseconds(200)) {
                recorder.holdVideo(before: before)
            }
        }
        if case .failure(let rejection) = recorder.handle(.stop, at: try Self.d.multiplied(by: 90)) {
            XCTFail("\(rejection)")
        }
        let clip = try recorder.finish(stoppedAt: "later")

        let programTimes = program.video.map(\.time)
        XCTAssertEqual(programTimes.count, 75, "30 frames, a pause of 15, 45 frames")
        XCTAssertEqual(tele.video.map(\.time), programTimes)
        XCTAssertEqual(wide.video.map(\.time), programTimes)
        // Keyframes where the program's segments start: the first frame and the resume's.
        XCTAssertEqual(tele.video.enumerated().filter(\.element.keyframe).map(\.offset), [0, 30])
        // tele shows its own frames 0…19, then holds frame 19's picture.
        XCTAssertEqual(tele.lumas.prefix(20).map { $0[0] }, (0..<20).map(UInt8.init))
        XCTAssertTrue(tele.lumas.dropFirst(20).allSatisfy { $0 == tele.lumas[19] })
        // wide never delivered: the slate, at its size.
        XCTAssertTrue(wide.lumas.allSatisfy { $0.count == 8 })
        XCTAssertEqual(Set(wide.video.map(\.lens)), [NoSignalSlate.frame(width: 4, height: 2, lens: "wide", lostAt: .zero,
                                                                         pts: .zero).lens])
        XCTAssertEqual(clip.sidecar.iso?.map(\.frames), [75, 75])
        XCTAssertEqual(clip.sidecar.iso?.map(\.file), ["clip.iso/tele.mov", "clip.iso/wide.mov"])
        XCTAssertTrue(tele.finished && wide.finished)
    }
}
