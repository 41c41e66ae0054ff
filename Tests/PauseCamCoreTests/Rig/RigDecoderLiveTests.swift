import XCTest
@testable import PauseCamCore

/// `live:` decoded from trees laid out as their YAML text is written (`FlowLine`), each message pinned to its line
/// and column; and `StreamURL`, whose redacted form is all people ever see of a destination.
final class RigDecoderLiveTests: XCTestCase {
    typealias T = RigDecoderTests

    /// The rig of `RigDecoderVoicesTests.rig` (lenses on lines 3 to 5) with `live: LIVE` written on line 6, the
    /// value at column 7.
    static func rig(live: String) -> YAMLNode {
        var root = RigDecoderVoicesTests.rig()
        guard case .mapping(var pairs) = root.content else { preconditionFailure("the rig is a mapping") }
        pairs.append(YAMLNode.Pair(key: T.s("live", 6, 1), value: FlowLine.value(live, line: 6, column: 7)))
        root = YAMLNode(.mapping(pairs), at: root.mark)
        return root
    }

    func testGoodLiveTable() throws {
        let srt = try StreamURL.parse("srt://10.0.0.5:9000?streamid=publish/secret").get()
        let youtube = try StreamURL.parse("rtmps://a.rtmp.youtube.com/live2/abcd-efgh-KEY").get()
        let rows: [(String, String, Rig.Live)] = [
            ("a webcam device", "{webcam: {device: /dev/video10}}", Rig.Live(webcam: .device("/dev/video10"))),
            ("a webcam by label, paused shows a slate", "{webcam: {label: PauseCam}, while_paused: slate}",
             Rig.Live(webcam: .label("PauseCam"), whilePaused: .slate)),
            ("two destinations, names from the hosts",
             "{stream: [{url: \"srt://10.0.0.5:9000?streamid=publish/secret\"}, "
                + "{url: \"rtmps://a.rtmp.youtube.com/live2/abcd-efgh-KEY\", size: 1280x720, bitrate: 4500k, "
                + "audio_bitrate: 160k, start: off}]}",
             Rig.Live(streams: [
                Rig.Live.Stream(url: srt, name: "10.0.0.5"),
                Rig.Live.Stream(url: youtube, name: "a.rtmp.youtube.com", width: 1280, height: 720, bitrate: 4_500_000,
                                audioBitrate: 160_000, startsOn: false),
             ])),
            ("a webcam writing YUYV", "{webcam: {device: /dev/video10, format: yuyv}}", {
                var live = Rig.Live(webcam: .device("/dev/video10"))
                live.webcamFormat = .yuyv
                return live
            }()),
            ("a name given", "{stream: [{url: \"srt://10.0.0.5:9000\", name: studio}]}",
             Rig.Live(streams: [Rig.Live.Stream(url: try StreamURL.parse("srt://10.0.0.5:9000").get(), name: "studio")])),
        ]
        for (label, text, expected) in rows {
            let rig = try RigDecoder.decode(Self.rig(live: text))
            XCTAssertEqual(rig.live, expected, label)
        }
        XCTAssertNil(try RigDecoder.decode(RigDecoderVoicesTests.rig()).live)
        XCTAssertEqual(try RigDecoder.decode(Self.rig(live: "{webcam: {label: PauseCam}}")).live?.webcamFormat, .i420,
                       "I420 unless the rig asks for YUYV")
    }

    func testBadLiveTable() {
        let rows: [(String, [String])] = [
            ("{stream: [{url: \"http://example.com/live\"}]}",
             ["t.yaml:6:23: live.stream 1.url: a stream URL starts with one of srt://, rtmp://, rtmps://"]),
            ("{stream: [{url: \"srt://example.com\"}]}",
             ["t.yaml:6:23: live.stream 1.url: an SRT URL needs a port: srt://example.com:PORT"]),
            ("{stream: [{url: \"rtmp://host:99999/app/KEY\"}]}",
             ["t.yaml:6:23: live.stream 1.url: the stream URL's port must be a number from 1 to 65535"]),
            ("{stream: [{url: \"srt://a:1\", bitrate: 90M}]}",
             ["t.yaml:6:45: live.stream 1.bitrate: expected a bitrate from 100k to 50M such as 3M or 4500k, found \"90M\""]),
            ("{stream: [{url: \"srt://a:1\", start: maybe}]}",
             ["t.yaml:6:43: live.stream 1.start: expected on or off, found \"maybe\""]),
            ("{stream: [{url: \"srt://a:1\"}, {url: \"rtmp://a/app/KEY\"}]}",
             ["t.yaml:6:37: live.stream 2: the name \"a\" is taken by the destination at line 6, column 17; give each "
              + "destination its own name:"]),
            ("{stream: [{url: \"srt://a:1\", name: \"my stream\"}]}",
             ["t.yaml:6:42: live.stream 1.name: \"my stream\" cannot name a destination: use letters, digits, ., - and _ "
              + "(at most 32); it is a word of `live on NAME`"]),
            ("{stream: [{uri: \"srt://a:1\"}]}",
             ["t.yaml:6:17: live.stream 1: missing required key \"url\"",
              "t.yaml:6:18: live.stream 1: unknown key \"uri\"; did you mean \"url\"?"]),
            ("{webcam: {device: video10}}",
             ["t.yaml:6:25: live.webcam.device: expected a device node such as /dev/video10, found \"video10\""]),
            ("{webcam: {device: /dev/video10, format: mjpeg}}", ["t.yaml:6:47: live.webcam.format: \"mjpeg\" is not one of i420, yuyv"]),
            ("{while_paused: black}", ["t.yaml:6:22: live.while_paused: \"black\" is not one of live, slate"]),
            ("{}", ["t.yaml:6:7: live: names no output; write webcam: {device: /dev/videoN} or stream: "
                    + "[{url: \"srt://HOST:PORT\"}]"]),
        ]
        for (text, expected) in rows {
            XCTAssertEqual(messages(Self.rig(live: text)), expected, text)
        }
    }

    private func messages(_ root: YAMLNode) -> [String] { T.messages(of: root) }

    func testRedactedURLsShowSchemeHostAndPortOnly() throws {
        let rows: [(String, String)] = [
            ("rtmp://live.example.com/app/SECRET-KEY", "rtmp://live.example.com/…"),
            ("rtmps://a.rtmp.youtube.com:443/live2/KEY", "rtmps://a.rtmp.youtube.com:443/…"),
            ("srt://10.0.0.5:9000?streamid=publish/SECRET&passphrase=SECRET", "srt://10.0.0.5:9000/…"),
            ("rtmp://user:SECRET@host.example/app", "rtmp://host.example/…"),
            ("srt://[::1]:9000", "srt://[::1]:9000/…"),
        ]
        for (text, redacted) in rows {
            let url = try StreamURL.parse(text).get()
            XCTAssertEqual(url.redacted, redacted)
            XCTAssertEqual("\(url)", redacted, "interpolating a URL must not show it")
            XCTAssertFalse(url.redacted.contains("SECRET"))
        }
    }

    func testTheCheckSummaryShowsDestinationsWithoutTheirKeys() throws {
        let rig = try RigDecoder.decode(Self.rig(live: "{webcam: {device: /dev/video10}, stream: [{url: "
                                                 + "\"rtmp://live.example.com/app/SECRET-KEY\", name: site, start: off}]}"))
        let summary = RigSummary.text(of: rig, file: "t.yaml")
        XCTAssertTrue(summary.contains("""
              live (while paused: live):
                webcam /dev/video10
                stream site: rtmp://live.example.com/…, program size, 3Mbit/s video, 128kbit/s AAC, starts off (`live on site`)
            """), summary)
        XCTAssertFalse(summary.contains("SECRET"), summary)
    }

    func testARigHoldingAKeyThatOthersCanReadIsWarnedAbout() throws {
        var open = RigSurroundings.unasked
        open.readableByOthers = { $0 == "t.yaml" }
        let keyed = Self.rig(live: "{stream: [{url: \"rtmp://live.example.com/app/SECRET\"}]}")
        let warnings = try RigDecoder.decode(keyed, surroundings: open).warnings
        XCTAssertEqual(warnings.map(\.kind), [.liveKeyReadable])
        XCTAssertEqual(warnings.first?.description,
                       "t.yaml:6:7: warning: live: a stream URL holds a key and t.yaml can be read by other users; "
                       + "chmod 600 t.yaml")
        XCTAssertEqual(try RigDecoder.decode(keyed).warnings, [], "a file only its owner reads")
        let keyless = Self.rig(live: "{stream: [{url: \"srt://10.0.0.5:9000\"}]}")
        XCTAssertEqual(try RigDecoder.decode(keyless, surroundings: open).warnings, [])
        XCTAssertFalse(try StreamURL.parse("srt://h:1/").get().mayHoldSecret)
        XCTAssertTrue(try StreamURL.parse("srt://h:1?passphrase=x").get().mayHoldSecret)
        XCTAssertTrue(try StreamURL.parse("rtmp://u:p@h/app").get().mayHoldSecret)
    }
}
