/// The scenes and pauses of a clip as the movie shows them: the one rule for a scene that got no video frame.
///
/// A scene is empty when no frame reached it: two `chapter`s at the same instant, a pause or a stop right after a
/// `resume` or a `chapter`, a burst of pedal toggles. Such a scene has no place in the movie, so it is no chapter, and
/// the sidecar must not list it either (it would have no start, and sit out of order). It is merged into the scene
/// before it, which shows that moment of the movie (an empty scene has no frame, so its markers — given at the
/// movie's time then, the end of the scene before — fall inside that scene); empty scenes before the clip's first
/// frame go to the first scene that got one. The merged scene keeps its own index, name and title, so the numbers the
/// shell printed still name the same scenes; only the empty ones are gone.
///
/// The pauses around an empty scene become one cut: pauses with no frame between them are one place in the movie
/// (after the scene that holds the cut), and their wall time runs from the first pause to the last resume. A pause
/// before the clip's first frame cuts nothing out of the movie, and is dropped.
public enum MovieScenes {
    /// One scene of the movie: the scene that got frames, with the empty scenes merged into it.
    public struct Group: Sendable, Equatable {
        /// Index in `Session.scenes` of the scene that got frames; it gives the group its index, name and bounds.
        public var kept: Int
        /// Indices in `Session.scenes` of every scene merged here, `kept` among them, in order.
        public var members: Range<Int>
    }

    /// One cut of the movie: consecutive pauses with no frame between them.
    public struct Cut: Sendable, Equatable {
        /// The index (1-based, `Session.Scene.index`) of the group's scene the cut follows.
        public var afterScene: Int
        /// File time of the cut: the end of that scene.
        public var at: MediaTime
        /// Session-clock time of the first pause.
        public var began: MediaTime
        /// Session-clock time of the resume or stop that ended the last pause; `nil` while still paused.
        public var ended: MediaTime?
    }

    /// The groups of `scenes[start...]`, in order. `start` is 0 or the index of a scene that got frames: from 0, the
    /// empty scenes before the first scene with frames join that scene; after it, each scene with frames takes the
    /// empty scenes that follow it. No scene with frames, no group.
    public static func groups(of scenes: [Session.Scene], from start: Int = 0) -> [Group] {
        var groups: [Group] = []
        var groupStart = start
        for index in start..<scenes.count where scenes[index].start != nil {
            if let last = groups.last {
                groups[groups.count - 1].members = last.members.lowerBound..<index
                groupStart = index
            }
            groups.append(Group(kept: index, members: groupStart..<index + 1))
        }
        if let last = groups.last { groups[groups.count - 1].members = last.members.lowerBound..<scenes.count }
        return groups
    }

    /// The cuts of `pauses` between `groups` (all of them after `groups.first`'s first member). `leading` says that
    /// the first group starts the clip, so pauses after its empty leading scenes came before any frame.
    public static func cuts(of pauses: ArraySlice<Session.Pause>, scenes: [Session.Scene], groups: [Group],
                            leading: Bool) -> [Cut] {
        var cuts: [Cut] = []
        var groupIndex = 0
        for pause in pauses {
            let scene = pause.afterScene - 1
            while groupIndex < groups.count && !groups[groupIndex].members.contains(scene) { groupIndex += 1 }
            guard groupIndex < groups.count else { break }
            let group = groups[groupIndex]
            if leading && groupIndex == 0 && scene < group.kept { continue }
            let kept = scenes[group.kept]
            if var last = cuts.last, last.afterScene == kept.index {
                last.ended = pause.ended
                cuts[cuts.count - 1] = last
            } else {
                cuts.append(Cut(afterScene: kept.index, at: kept.end ?? .zero, began: pause.began, ended: pause.ended))
            }
        }
        return cuts
    }
}
