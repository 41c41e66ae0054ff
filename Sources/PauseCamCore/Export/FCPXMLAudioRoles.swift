import Foundation

/// How the FCPXML exports describe a movie's sound: the asset's audio attributes, and, for a movie of several
/// tracks (a rig of voices), one `audio-channel-source` per track that gives it an audio role.
///
/// FCPXML 1.9 has no element that lists an asset's tracks: the asset says how many sources (tracks) and channels
/// it has (`audioSources`, `audioChannels`), and a clip of it addresses the channels counted across every track,
/// from 1 (`srcCh="1, 2"` is the first stereo track, `srcCh="3"` the mono track after it). Each voice's track gets
/// the subrole `dialogue.NAME`, so Final Cut Pro's timeline index lists every person as a subrole of Dialogue, to
/// mute, solo, level or export as a stem one by one.
///
/// The mix (the first track) is in the clip too, as `dialogue.mix`, but inactive (`active="0"`): it is the voices
/// again, mixed, so with both playing every voice would sound twice (6 dB louder, and hollow wherever the two
/// copies are not sample-aligned). Editors of multi-microphone recordings cut from the separate tracks and keep
/// the recorder's mix at hand as a reference; one tick in Final Cut's audio inspector plays it instead.
enum FCPXMLAudioRoles {
    /// The most channels a track is counted with; a sidecar is text anyone can edit, so a count outside
    /// `1...maximumChannels` is taken as the nearest end of that range.
    static let maximumChannels = 64

    /// The role every track's subrole belongs to.
    static let mainRole = "dialogue"

    /// The asset's audio attributes, each after a space (empty without sound): `hasAudio`, `audioSources` (one per
    /// track), `audioChannels` (every track's channels together), `audioRate`.
    static func assetAttributes(hasAudio: Bool, tracks: [ExportTimeline.AudioTrack], channels: Int,
                                sampleRate: Int) -> String {
        guard hasAudio else { return "" }
        let sources = tracks.count > 1 ? tracks.count : 1
        let total = tracks.count > 1 ? tracks.map(clampedChannels).reduce(0, +) : channels
        return " hasAudio=\"1\" audioSources=\"\(sources)\" audioChannels=\"\(total)\" audioRate=\"\(sampleRate)\""
    }

    /// A clip's `audio-channel-source` elements: one per track when there are several, the mix (first) inactive,
    /// each with its `dialogue.TITLE` role (titles made unique, a dot — which separates a role from its subrole —
    /// turned into a dash). None for a movie of one track: its sound plays as recorded.
    static func channelSources(_ tracks: [ExportTimeline.AudioTrack]) -> [String] {
        guard tracks.count > 1 else { return [] }
        let names = ChapterTitles.unique(tracks.enumerated().map { index, track in
            let name = track.title.replacingOccurrences(of: ".", with: "-")
                .trimmingCharacters(in: .whitespaces)
            return name.isEmpty ? "track \(index + 1)" : name
        })
        var elements: [String] = []
        var firstChannel = 1
        for (index, (track, name)) in zip(tracks, names).enumerated() {
            let count = clampedChannels(track)
            let channels = (firstChannel..<(firstChannel + count)).map(String.init).joined(separator: ", ")
            firstChannel += count
            let role = FCPXMLDocument.escape("\(mainRole).\(name)")
            elements.append("<audio-channel-source srcCh=\"\(channels)\" role=\"\(role)\""
                            + (index == 0 ? " active=\"0\"/>" : "/>"))
        }
        return elements
    }

    /// A track's channel count within `1...maximumChannels`.
    private static func clampedChannels(_ track: ExportTimeline.AudioTrack) -> Int {
        min(max(track.channels, 1), maximumChannels)
    }
}
