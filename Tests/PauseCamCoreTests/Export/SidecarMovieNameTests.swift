import XCTest
@testable import PauseCamCore

/// A sidecar's `movie` is a name beside the sidecar, never a path out of its folder or a hidden file.
final class SidecarMovieNameTests: XCTestCase {
    func testTheMovieIsAPlainNameBesideTheSidecar() {
        let cases: [(movie: String, expected: String)] = [
            ("clip.mov", "clip.mov"), ("../../../escaped.mov", "escaped.mov"), ("/etc/passwd", "passwd"),
            ("a/b/c.mkv", "c.mkv"), (".hidden.mov", "hidden.mov"), ("...mov", "mov"), ("", "desk.mov"),
            ("..", "desk.mov"), ("sub/", "desk.mov"), ("/", "desk.mov"), ("bad\0.mov", "desk.mov"),
            ("Interview: take 2.mp4", "Interview: take 2.mp4"),
        ]
        for item in cases {
            XCTAssertEqual(SidecarMovieName.beside(sidecarFileName: "desk.json", movie: item.movie), item.expected,
                           item.movie)
        }
    }

    func testASidecarWithoutAUsableNameOfItsOwnStillGivesOne() {
        XCTAssertEqual(SidecarMovieName.beside(sidecarFileName: ".json", movie: ""), "json.mov")
        XCTAssertEqual(SidecarMovieName.beside(sidecarFileName: "...", movie: ""), "clip.mov")
        XCTAssertEqual(SidecarMovieName.beside(sidecarFileName: "notes", movie: "/"), "notes.mov")
    }
}
