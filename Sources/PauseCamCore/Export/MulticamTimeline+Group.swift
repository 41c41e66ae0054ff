import Foundation

extension MulticamTimeline {
    /// A group member's clip as `group(_:)` takes it: its sidecar and how to name it in a message (its path).
    public struct MemberClip: Sendable {
        public var label: String
        public var sidecar: Sidecar
        public init(label: String, sidecar: Sidecar) {
            self.label = label
            self.sidecar = sidecar
        }
    }

    /// A group's timeline and what the user should know about how exactly it was placed.
    public struct GroupResult: Sendable {
        public var timeline: MulticamTimeline
        /// One line per angle placed less exactly than to the frame (its `record` came late).
        public var warnings: [String]
    }

    /// The clips of one group's members as one multicam timeline: an angle per clip (named after its member's
    /// host), placed by the group's frame grid, the first clip's angle shown throughout and heard (or the first
    /// with sound), and the chapters and markers of every clip on the timeline, each once.
    ///
    /// A member's movie begins at the grid slot of the `record` that started it (the first applied `record` in the
    /// sidecar's `group.commands`): an angle's offset is its slot minus the earliest, in frames, exact because
    /// every member computes the same grid. That is also its file-time offset while no pause falls between the
    /// two starts, which holds for members that took the group's commands together. A `record` applied on arrival
    /// (`late`, `local_only`) began at the first slot after it arrived, which is taken instead (with a warning:
    /// the clocks' agreement then decides the frame).
    ///
    /// Throws when a sidecar has no `group` block (nothing places it exactly beside the others: its `started` is
    /// wall clock, to the second), no applied `record`, or when the clips are of different groups, grids or frame
    /// rates, or one clip is given twice; the error names the sidecars.
    public static func group(_ clips: [MemberClip]) throws(ExportError) -> GroupResult {
        guard let first = clips.first else { throw ExportError("--multicam needs the sidecars of a group's members") }
        var placed: [(clip: MemberClip, group: Sidecar.Group, timeline: ExportTimeline, slot: Int64)] = []
        var warnings: [String] = []
        for clip in clips {
            guard let group = clip.sidecar.group else {
                throw ExportError("\(clip.label) has no group block: its clip was not recorded by a member of a "
                                  + "group (rig group:), so nothing places it to the frame beside the others; give "
                                  + "only the sidecars of one group's members")
            }
            let timeline: ExportTimeline
            do { timeline = try ExportTimeline(sidecar: clip.sidecar) } catch {
                throw ExportError("\(clip.label): \(error)")
            }
            if let earlier = placed.first {
                try requireSame(clip.label, earlier.clip.label, "group", group.name, earlier.group.name)
                try requireSame(clip.label, earlier.clip.label, "frame rate", "\(timeline.rate) fps",
                                "\(earlier.timeline.rate) fps")
                try requireSame(clip.label, earlier.clip.label, "grid epoch (group.epoch_ns)", "\(group.epochNs)",
                                "\(earlier.group.epochNs)")
            }
            let (slot, warning) = try startSlot(of: group, rate: timeline.rate, label: clip.label)
            if let warning { warnings.append(warning) }
            if let twin = placed.first(where: { $0.group.host == group.host && $0.slot == slot }) {
                throw ExportError("\(clip.label) and \(twin.clip.label) are the same clip (\(group.host), grid slot "
                                  + "\(slot)); give each member's sidecar once")
            }
            placed.append((clip, group, timeline, slot))
        }
        let earliest = placed.map(\.slot).min() ?? 0
        let names = ChapterTitles.unique(placed.map(\.group.host))
        let angles = zip(placed, names).map { member, name in
            var angle = Angle(name: name, movie: member.timeline.movie, width: member.timeline.width,
                  height: member.timeline.height, durationFrames: member.timeline.durationFrames,
                  offsetFrames: member.slot - earliest, hasAudio: member.timeline.hasAudio,
                  audioSampleRate: member.timeline.audioSampleRate, audioChannels: member.timeline.audioChannels,
                  audioTracks: member.timeline.audioTracks)
            angle.sourceStartFrame = member.timeline.sourceStartFrame
            return angle
        }
        // Members that took the same commands hold the same scenes on the same frames: each is kept once.
        var chapterKeys: Set<String> = []
        var chapters: [ExportTimeline.Chapter] = []
        var markerKeys: Set<String> = []
        var markers: [ExportTimeline.Marker] = []
        for (member, angle) in zip(placed, angles) {
            for var chapter in member.timeline.chapters {
                chapter.startFrame += angle.offsetFrames
                chapter.endFrame += angle.offsetFrames
                if chapterKeys.insert("\(chapter.startFrame) \(chapter.title)").inserted { chapters.append(chapter) }
            }
            for var marker in member.timeline.markers {
                marker.frame += angle.offsetFrames
                if markerKeys.insert("\(marker.frame) \(marker.text)").inserted { markers.append(marker) }
            }
        }
        chapters.sort { ($0.startFrame, $0.title) < ($1.startFrame, $1.title) }
        for (index, title) in ChapterTitles.unique(chapters.map(\.title)).enumerated() {
            chapters[index].title = title
        }
        let timeline = try MulticamTimeline(name: "\(first.sidecar.group?.name ?? "group") \(placed[0].timeline.name)",
                                            rate: placed[0].timeline.rate, angles: angles,
                                            cuts: [Cut(startFrame: 0, angle: 0)], chapters: chapters,
                                            markers: markers)
        return GroupResult(timeline: timeline, warnings: warnings)
    }

    /// The grid slot a member's movie began at, and a warning when it is not exact.
    private static func startSlot(of group: Sidecar.Group, rate: FrameRate,
                                  label: String) throws(ExportError) -> (Int64, String?) {
        let applied = ["on_time", "late", "local_only"]
        guard let record = group.commands.first(where: {
            $0.command.split(separator: " ").first == "record" && applied.contains($0.outcome)
        }) else {
            throw ExportError("\(label): its group block holds no applied record command, so the slot its movie "
                              + "began at is not known (a clip started by toggle is not placed); give the sidecars "
                              + "of clips started by record")
        }
        if record.outcome == "on_time" { return (record.slot, nil) }
        let slot = EpochGrid(rate: rate, epochNanoseconds: group.epochNs).slot(atOrAfter: record.arrivedNs)
        return (slot, "\(label): its \"\(record.command)\" was applied on arrival (\(record.outcome)), so its angle "
                + "is placed at the first slot after it arrived (\(slot)); check its sync by eye")
    }

    /// Nothing when `value` equals `other`'s, else an error naming both sidecars and both values.
    private static func requireSame(_ label: String, _ otherLabel: String, _ what: String, _ value: String,
                                    _ other: String) throws(ExportError) {
        guard value != other else { return }
        throw ExportError("\(label) has \(what) \(value) but \(otherLabel) has \(other); a multicam clip takes the "
                          + "clips of one group recorded at one rate")
    }
}
