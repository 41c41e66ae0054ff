/// The recording state machine of one clip: `idle → recording ⇄ paused → stopping → finished`.
///
/// A struct that performs no I/O: `handle(_:at:)` checks a command against the state and returns the actions the
/// caller (the `Recorder`) must perform, or a rejection that changed nothing. It also keeps the scene list (scene 1
/// at `record`, one more at every `resume` and every `chapter`) and the live timer, both derived from the video frames actually
/// appended, so the timer freezes while paused and always equals the movie's duration.
public struct Session: Sendable {
    /// Where the clip is in its life.
    public enum State: String, Sendable, Equatable {
        case idle, recording, paused, stopping, finished
    }

    /// The commands that change the state. (Lens, zoom, marks and waits do not, and are handled elsewhere.)
    public enum Command: Sendable, Equatable {
        case record(name: String?)
        case pause
        case resume(name: String?)
        /// A new scene while recording, without a pause: it owns the video frames captured at or after its time.
        case chapter(name: String?)
        /// Throws the scene being recorded away and records it again from where it began, as if it had never been
        /// recorded (see `Retake`).
        case retake
        case stop
    }

    /// What the caller must do after an accepted command, in order.
    public enum Action: Sendable, Equatable {
        /// Open the movie file and its writer (before the first frame can arrive).
        case openMovie
        /// Tell the retimer that recording starts or resumes at this capture time.
        case startRetimer(at: MediaTime)
        /// Tell the retimer that recording pauses at this capture time.
        case pauseRetimer(at: MediaTime)
        /// Tell the retimer that recording stops at this capture time.
        case stopRetimer(at: MediaTime)
        /// A new scene began (its index); the sidecar should record it.
        case sceneBegan(Int)
        /// The current scene ended by a pause; write the sidecar so a crash keeps it.
        case sceneEnded(Int)
        /// Finish the movie once the samples captured before the stop have arrived.
        case finalize(at: MediaTime)
    }

    /// Why a command was refused; the message is for the user and says what to do instead.
    public struct Rejection: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// One scene: from a `record`, `resume` or `chapter` to the next `pause`, `chapter` or `stop`.
    public struct Scene: Sendable, Equatable {
        /// 1-based.
        public var index: Int
        /// The name given with `record NAME` / `resume NAME`; `nil` shows as "Scene N".
        public var name: String?
        /// Session-clock time of the command that began it (with a preroll, the edge it was taken back to).
        public var commandTime: MediaTime
        /// File time of its first video frame; `nil` while it has none (a pause before any frame arrived).
        public var start: MediaTime?
        /// File time just after its last video frame.
        public var end: MediaTime?
        /// Session-clock time the command was pressed when a preroll began the scene earlier (`commandTime`);
        /// `nil` without one.
        public var pressed: MediaTime? = nil

        /// The scene's length in the movie (zero for a scene that got no frame).
        public var duration: MediaTime {
            guard let start, let end else { return .zero }
            return end - start
        }

        /// The name, or "Scene N".
        public var title: String { name ?? "Scene \(index)" }
    }

    /// One pause, in the terms of the sidecar.
    public struct Pause: Sendable, Equatable {
        /// The scene the pause ended.
        public var afterScene: Int
        /// File time of the cut: the end of the last frame of `afterScene` (the timer when the pause was given,
        /// moved on by frames captured before the pause that arrived after it).
        public var at: MediaTime
        /// Session-clock time of the `pause` command.
        public var began: MediaTime
        /// Session-clock time of the `resume` or `stop` that ended it.
        public var ended: MediaTime?
    }

    /// One `retake`: a stretch of the `.partial` file that the movie leaves out.
    ///
    /// The `.partial` keeps every sample in the order it was recorded (its times only go forward, so the file stays
    /// playable after a crash, discarded take included); the finished movie leaves the discarded span out. File
    /// time here is the `.partial`'s; movie time is file time less every discarded span before it. So a retake is
    /// one more offset, the same for video and audio: the next sample lands at the discarded scene's start.
    public struct Retake: Sendable, Equatable {
        /// The scene taken again (1-based); the new take keeps its index and name.
        public var scene: Int
        /// Session-clock time of the command that began the discarded take.
        public var takeBegan: MediaTime
        /// Session-clock time of the `retake` command: frames captured before it belong to the discarded take.
        public var commandTime: MediaTime
        /// `.partial` file time of the discarded take's first frame; `nil` while it has none.
        public var fileStart: MediaTime?
        /// `.partial` file time where the new take begins (its first frame); `nil` until that frame came, or when
        /// no frame came after the retake (the take then ends at `lastEnd`).
        public var fileEnd: MediaTime?
        /// `.partial` file time just after the last frame of the discarded take seen so far.
        public var lastEnd: MediaTime?

        /// The discarded span of the `.partial`, once it has a frame.
        public var span: Range<MediaTime>? {
            guard let fileStart, let end = fileEnd ?? lastEnd, end > fileStart else { return nil }
            return fileStart..<end
        }

        /// How long the discarded take was.
        public var discardedDuration: MediaTime { span.map { $0.upperBound - $0.lowerBound } ?? .zero }
    }

    public private(set) var state: State = .idle
    /// Every `retake` of the clip, in order.
    public private(set) var retakes: [Retake] = []
    /// Index in `retakes` of the first retake whose new take has no frame yet (`fileEnd == nil`); every one before
    /// it is resolved, every one from it on is open.
    private var firstOpenRetake = 0
    /// The total of the discarded spans resolved so far: `.partial` file time − movie time for new frames.
    public private(set) var discarded: MediaTime = .zero
    public private(set) var scenes: [Scene] = []
    public private(set) var pauses: [Pause] = []
    /// Nominal video frame duration: a frame at file time t fills [t, t + frameDuration).
    public let frameDuration: MediaTime
    /// File time of the end of the last appended video frame: the live timer and the movie's duration.
    public private(set) var timer: MediaTime = .zero
    /// The scene the open video segment belongs to.
    /// Index into `scenes` of the scene the open video segment belongs to (frames appended now go there).
    public private(set) var segmentScene: Int?

    public init(frameDuration: MediaTime) { self.frameDuration = frameDuration }

    /// The scene just begun by a `record` or `resume` at an edge before its press (`preroll:`) was pressed at
    /// `time`: the sidecar tells how far it reached back.
    public mutating func notePress(_ time: MediaTime) {
        guard let last = scenes.indices.last, time > scenes[last].commandTime else { return }
        scenes[last].pressed = time
    }

    /// The scene being recorded or last recorded; `nil` before `record`.
    public var currentScene: Scene? { scenes.last }

    /// Checks `command`, given at session-clock `time`, and returns the actions to perform; a rejection changes
    /// nothing.
    public mutating func handle(_ command: Command, at time: MediaTime) -> Result<[Action], Rejection> {
        switch (command, state) {
        case (.record(let name), .idle):
            state = .recording
            scenes.append(Scene(index: 1, name: name, commandTime: time))
            return .success([.openMovie, .startRetimer(at: time), .sceneBegan(1)])
        case (.record, .recording), (.record, .paused):
            return reject("already recording (scene \(scenes.count)); use `stop` first to start a new clip")
        case (.record, .stopping), (.record, .finished):
            return reject("this clip is being finished; `record` again when it is saved")

        case (.pause, .recording):
            state = .paused
            let scene = scenes.count
            pauses.append(Pause(afterScene: scene, at: timer, began: time, ended: nil))
            return .success([.pauseRetimer(at: time), .sceneEnded(scene)])
        case (.pause, .paused):
            return reject("already paused; `resume` to go on or `stop` to finish the clip")
        case (.pause, .idle):
            return reject("not recording; `record` first")
        case (.pause, _):
            return reject("the clip is stopping; nothing to pause")

        case (.resume(let name), .paused):
            state = .recording
            pauses[pauses.count - 1].ended = time
            let index = scenes.count + 1
            scenes.append(Scene(index: index, name: name, commandTime: time))
            return .success([.startRetimer(at: time), .sceneBegan(index)])
        case (.resume, .recording):
            return reject("already recording; `pause` first")
        case (.resume, .idle):
            return reject("not recording; use `record` to start a clip")
        case (.resume, _):
            return reject("the clip is stopping; `record` a new one when it is saved")

        case (.chapter(let name), .recording):
            let ended = scenes.count
            let index = scenes.count + 1
            scenes.append(Scene(index: index, name: name, commandTime: time))
            return .success([.sceneEnded(ended), .sceneBegan(index)])
        case (.chapter, .paused):
            return reject("paused; `resume NAME` begins the new scene (a chapter needs a running recording)")
        case (.chapter, .idle):
            return reject("not recording; `record NAME` begins the first scene")
        case (.chapter, _):
            return reject("the clip is stopping; `record` a new one when it is saved")

        case (.retake, .recording):
            // The take ends at the retake as a pause would, and the new one begins there as a resume would: the
            // retimer's seam puts the new take's first frame right after the discarded one's last, with a keyframe.
            let index = scenes.count - 1
            let scene = scenes[index]
            if let last = retakes.last, last.fileEnd == nil, last.scene == scene.index {
                // Taken again before the new take got a frame: still the one discarded take, now up to here.
                retakes[retakes.count - 1].commandTime = time
            } else {
                let fileStart = segmentScene == index ? scene.start.map { $0 + discarded } : nil
                let lastEnd = segmentScene == index ? scene.end.map { $0 + discarded } : nil
                retakes.append(Retake(scene: scene.index, takeBegan: scene.commandTime, commandTime: time,
                                      fileStart: fileStart, fileEnd: nil, lastEnd: lastEnd))
            }
            if let start = scene.start, segmentScene == index { timer = start }
            scenes[index].start = nil
            scenes[index].end = nil
            scenes[index].commandTime = time
            // The new take begins at the retake itself: a preroll reached back for the discarded take only.
            scenes[index].pressed = nil
            if segmentScene == index { segmentScene = nil }
            return .success([.pauseRetimer(at: time), .startRetimer(at: time)])
        case (.retake, .paused):
            return reject("paused; the scene before the pause is kept. `resume`, then `retake` to record the new "
                          + "scene again")
        case (.retake, .idle):
            return reject("not recording; `retake` throws away the scene being recorded — `record` first")
        case (.retake, _):
            return reject("the clip is stopping; nothing to take again")

        case (.stop, .recording), (.stop, .paused):
            if state == .paused { pauses[pauses.count - 1].ended = time }
            let wasRecording = state == .recording
            state = .stopping
            var actions: [Action] = [.stopRetimer(at: time)]
            if wasRecording { actions.append(.sceneEnded(scenes.count)) }
            actions.append(.finalize(at: time))
            return .success(actions)
        case (.stop, .idle):
            return reject("not recording; nothing to stop")
        case (.stop, _):
            return reject("already stopping")
        }
    }

    private func reject(_ message: String) -> Result<[Action], Rejection> { .failure(Rejection(message: message)) }

    /// Records that the retimer appended a video frame captured at `capturePTS` at `fileTime`; `startsSegment` as
    /// the retimer said. Moves the timer and the current scene's bounds.
    public mutating func videoAppended(capturePTS: MediaTime, fileTime partialTime: MediaTime, startsSegment: Bool) {
        // Every retake whose new take has no frame yet is still open, and there can be several: `retake`,
        // `chapter`, `retake` at one instant leaves the first one open while the second is given. They are resolved
        // in order by this frame's capture time: a frame at or after a retake's command ends that retake's span
        // (the new take starts here); a frame captured inside a discarded take (capture latency) joins its span and
        // is kept out of every scene; a frame captured before a take began goes to the scene before it, and so
        // does every later open retake, whose take began later still.
        var open = firstOpenRetake
        while open < retakes.endIndex {
            var retake = retakes[open]
            guard capturePTS >= retake.takeBegan else { break }
            if retake.fileStart == nil { retake.fileStart = partialTime }
            if capturePTS < retake.commandTime {
                retake.lastEnd = partialTime + frameDuration
                retakes[open] = retake
                return
            }
            retake.fileEnd = partialTime
            retakes[open] = retake
            discarded = discarded + retake.discardedDuration
            open += 1
            firstOpenRetake = open
        }
        let fileTime = partialTime - discarded
        // A frame belongs to the latest scene begun at or before its capture time. A new segment (after record or
        // resume) looks it up; so does the first frame captured at or after a `chapter`, which has no seam of its
        // own: the chapter's scene starts there, and the scene before ends one frame earlier, edge to edge.
        let owner = scenes.lastIndex { $0.commandTime <= capturePTS } ?? (scenes.count - 1)
        if startsSegment || segmentScene == nil || owner > (segmentScene ?? owner) {
            guard owner >= 0 else { return }
            segmentScene = owner
            if scenes[owner].start == nil { scenes[owner].start = fileTime }
        }
        guard let index = segmentScene else { return }
        let end = fileTime + frameDuration
        scenes[index].end = end
        if end > timer { timer = end }
        // Frames captured before a pause can arrive after it was given (capture latency): the cut is where the
        // scene's last frame ends, not where the timer happened to be when the command came.
        // Pauses come in scene order: the one after this scene, if any, is among the last (no walk over them all).
        var pause = pauses.count - 1
        while pause >= 0 && pauses[pause].afterScene > index + 1 { pause -= 1 }
        if pause >= 0 && pauses[pause].afterScene == index + 1 { pauses[pause].at = end }
    }

    /// The spans of the `.partial` file (in its file time) that the finished movie leaves out, in order.
    public var discardedSpans: [Range<MediaTime>] { retakes.compactMap(\.span) }

    /// The movie time of `.partial` file time `partialTime`; `nil` inside a discarded span.
    public func movieTime(ofFileTime partialTime: MediaTime) -> MediaTime? {
        var shift = MediaTime.zero
        for span in discardedSpans {
            if partialTime >= span.upperBound { shift = shift + (span.upperBound - span.lowerBound) }
            else if partialTime >= span.lowerBound { return nil }
        }
        return partialTime - shift
    }

    /// The movie was written and closed: `stopping → finished`.
    public mutating func markFinished() {
        if state == .stopping { state = .finished }
    }
}
