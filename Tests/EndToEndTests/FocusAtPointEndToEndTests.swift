import Foundation
import PauseCamCore
import XCTest

/// `focus at X Y` (what a tap on the monitor sends) through the built binary, on the e2e rig's virtual lenses,
/// which have neither a region of interest nor autofocus: the reply says so in the documented words, the session
/// exits 0 (the rig goes on, as with `focus auto` on such a lens), the clip's sidecar notes it, and a point
/// outside the picture is a refused command with status 1.
final class FocusAtPointEndToEndTests: XCTestCase {
    typealias Transcript = ShellTranscriptTests

    static let noControl = "lens main has no focus control (no region of interest, no autofocus); nothing changed"

    func testATapOnAVirtualLensSaysItHasNoFocusControlAndExitsZero() throws {
        let run = try Transcript.shell("focus at 0.5 0.5\n", name: "focus-at")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        Transcript.assertTranscript(run.transcript, equals: """
            idle main > focus at 0.5 0.5
            \(Self.noControl) (noted in the next clip's sidecar)

            """)
    }

    func testATapDuringAClipIsNotedInItsSidecar() throws {
        let run = try Transcript.shell("record\nwait 500ms\nfocus at 0.25 0.75\nwait 500ms\nstop\n",
                                       name: "focus-at-clip")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.transcript.contains("> focus at 0.25 0.75\n\(Self.noControl) (noted in the clip's sidecar)\n"),
                      run.transcript)
        let (_, sidecar) = try Transcript.movie(in: run.directory)
        XCTAssertEqual(sidecar.warnings, ["focus at 0.25 0.75: \(Self.noControl)"])
    }

    func testAPointOutsideThePictureIsRefusedWithStatusOne() throws {
        let run = try Transcript.shell("focus at 1.5 0.5\n", name: "focus-at-outside")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderr, "error: line 1: focus at 1.5 0.5: focus at 1.5 0.5 is outside the picture: focus at "
                       + "X Y takes two numbers from 0 to 1 (the point of the picture, from its left and top), e.g. "
                       + "focus at 0.5 0.5\n")
    }
}
