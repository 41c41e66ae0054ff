import Foundation
import XCTest
@testable import PauseCamCore

/// `FCPXMLAudioRoles` through both FCPXML writers: a movie of a rig of voices (the stereo mix, then a mono track per
/// voice) declares every track and channel on its asset, and its clip gives each voice the role `dialogue.NAME`,
/// the mix inactive; a movie of one track is written as before.
final class FCPXMLAudioRolesTests: XCTestCase {
    static let voices = ExportTimeline.voiceTracks(["mix", "host", "guest"])

    /// The lines of `text` that hold `needle`, trimmed.
    private func lines(_ text: String, containing needle: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.contains(needle) }
    }

    func testVoiceTracksAreTheStereoMixThenAMonoTrackPerVoice() {
        XCTAssertEqual(Self.voices, [.init(title: "mix", channels: 2), .init(title: "host", channels: 1),
                                     .init(title: "guest", channels: 1)])
    }

    func testAClipOfVoicesHasARolePerVoiceAndTheMixInactive() throws {
        var timeline = try ExportSample.timeline()
        timeline.audioTracks = Self.voices
        let text = FCPXMLDocument.render(timeline, mediaURL: "file:///v/clip.mov")
        let asset = try XCTUnwrap(lines(text, containing: "<asset ").first)
        XCTAssertTrue(asset.contains(#"hasAudio="1" audioSources="3" audioChannels="4" audioRate="48000""#), asset)
        XCTAssertEqual(lines(text, containing: "<audio-channel-source"), [
            #"<audio-channel-source srcCh="1, 2" role="dialogue.mix" active="0"/>"#,
            #"<audio-channel-source srcCh="3" role="dialogue.host"/>"#,
            #"<audio-channel-source srcCh="4" role="dialogue.guest"/>"#,
        ])
        // The DTD's order inside an asset-clip: markers, then the channel sources, then the end tag.
        let lastMarker = try XCTUnwrap(text.range(of: "<marker ", options: .backwards))
        let firstSource = try XCTUnwrap(text.range(of: "<audio-channel-source"))
        let end = try XCTUnwrap(text.range(of: "</asset-clip>"))
        XCTAssertLessThan(lastMarker.lowerBound, firstSource.lowerBound)
        XCTAssertLessThan(firstSource.lowerBound, end.lowerBound)
    }

    func testAClipOfOneTrackIsWrittenAsBefore() throws {
        var timeline = try ExportSample.timeline()
        let plain = FCPXMLDocument.render(timeline)
        XCTAssertTrue(plain.contains(#"audioSources="1" audioChannels="1""#), plain)
        XCTAssertFalse(plain.contains("audio-channel-source"))
        timeline.audioTracks = [.init(title: "mix", channels: 1)]
        XCTAssertEqual(FCPXMLDocument.render(timeline), plain, "one track: nothing to tell apart")
        timeline.hasAudio = false
        timeline.audioTracks = Self.voices
        let silent = FCPXMLDocument.render(timeline)
        XCTAssertFalse(silent.contains("hasAudio"), "no sound, no audio attributes")
        XCTAssertFalse(silent.contains("audio-channel-source"))
    }

    func testTitlesBecomeUniqueSubrolesAndChannelCountsStayInRange() {
        let tracks: [ExportTimeline.AudioTrack] = [
            .init(title: "mix", channels: 2), .init(title: "mix", channels: 1), .init(title: "Dr. Who", channels: 1),
            .init(title: " ", channels: 1), .init(title: "a&b\u{1}", channels: 0), .init(title: "x", channels: 1_000),
        ]
        XCTAssertEqual(FCPXMLAudioRoles.channelSources(tracks), [
            #"<audio-channel-source srcCh="1, 2" role="dialogue.mix" active="0"/>"#,
            #"<audio-channel-source srcCh="3" role="dialogue.mix 2"/>"#,
            #"<audio-channel-source srcCh="4" role="dialogue.Dr- Who"/>"#,
            #"<audio-channel-source srcCh="5" role="dialogue.track 4"/>"#,
            #"<audio-channel-source srcCh="6" role="dialogue.a&amp;b "/>"#,
            #"<audio-channel-source srcCh="\#((7...70).map(String.init).joined(separator: ", "))" role="dialogue.x"/>"#,
        ])
        XCTAssertEqual(FCPXMLAudioRoles.assetAttributes(hasAudio: true, tracks: tracks, channels: 2,
                                                        sampleRate: 48_000),
                       #" hasAudio="1" audioSources="6" audioChannels="70" audioRate="48000""#)
    }

    func testEveryAngleOfAnIsoMulticamCarriesTheVoicesRoles() throws {
        var sidecar = ExportSample.sidecar(fps: 30)
        sidecar.scenes = [Sidecar.Scene(index: 1, title: "S", start: 0, duration: 6, lenses: [
            .init(lens: "wide", start: 0, duration: 3), .init(lens: "tele", start: 3, duration: 3),
        ], markers: [])]
        sidecar.duration = 6
        sidecar.iso = [.init(lens: "wide", file: "clip.iso/wide.mov", width: 640, height: 360, fps: 30, frames: 180),
                       .init(lens: "tele", file: "clip.iso/tele.mov", width: 640, height: 360, fps: 30, frames: 180)]
        var clip = try ExportTimeline(sidecar: sidecar)
        clip.audioTracks = Self.voices
        let timeline = try XCTUnwrap(try MulticamTimeline.iso(of: sidecar, clip: clip))
        XCTAssertEqual(timeline.angles.map(\.audioTracks), [Self.voices, Self.voices])
        let text = FCPXMLMulticamDocument.render(timeline)
        XCTAssertEqual(lines(text, containing: #"audioSources="3" audioChannels="4""#).count, 2, text)
        XCTAssertEqual(lines(text, containing: #"role="dialogue.host""#).count, 2, "one per angle's clip")
        XCTAssertEqual(lines(text, containing: "</asset-clip>").count, 2)
        XCTAssertEqual(lines(text, containing: "<mc-clip ").count, 2)
    }
}
