import Foundation

/// A cut `follow` asks for: the program goes to `lens` at `at` (session clock) because `voices` speak (empty:
/// nobody does).
public struct FollowDecision: Sendable, Equatable {
    public var lens: String
    /// The speaking voices that chose the lens, in the rig's order (voices without a lens in `follow:` are left
    /// out: they count as nobody).
    public var voices: [String]
    public var at: MediaTime

    public init(lens: String, voices: [String], at: MediaTime) {
        self.lens = lens
        self.voices = voices
        self.at = at
    }
}

/// `follow:` as a state machine: fed every voice's level for each chunk of the mix, it says when the program
/// should cut, and to which lens, so the lens follows who speaks.
///
/// It has no clock of its own: time is what the chunks say (`from`, `to`, on the session clock), so the same
/// levels always give the same cuts. The caller (the engine, on the serial context) carries out each decision
/// and tells it of every lens a person chose (`manualLens`).
///
/// The rules, in order:
/// 1. A voice **speaks** while its peak (dBFS, after its gain) is above `follow.thresholdDBFS`, and for
///    `release` after that, so the gaps between words do not count as silence. A voice that falls silent hands
///    over at once, though, when another voice starts speaking after it fell silent: its release bridges its own
///    pauses, not the next person's first words. "After" allows `handoffOverlap` of overlap.
/// 2. The **wanted lens**: one speaker → that voice's lens; speakers on several lenses → `both`; nobody (or only
///    voices without a lens) → `nobody`.
/// 3. **Cut** when the wanted lens differs from the program's, has been wanted without a break for `hold`, and the
///    program's shot has lasted `minimumShot`. The cut's time is the instant all three hold (on a chunk's edge or
///    inside it), never earlier than the chunk that shows it.
/// 4. A **manual** lens pauses following for `manualHold`; after that, and after `follow on`, the hold is counted
///    from the moment following resumed, so it never cuts the instant it resumes.
///
/// Value type, used on one thread (the serial context).
public struct FollowDirector: Sendable {
    /// How long a voice keeps counting as speaking after its last sound above the threshold. Speech keeps its
    /// level up within words; the quiet between words and at commas is mostly shorter than this, so a speaker
    /// is not dropped in mid-sentence, while a real end of speech (which lasts longer) reaches `nobody` only this
    /// much later. The handoff rule (see the type) keeps it from delaying a change of speaker.
    public static let release = MediaTime.milliseconds(300)
    /// How much earlier than a voice's last sound another may have begun and still take over from it (rule 1): the
    /// chunks the levels come in are 10–21 ms long, so a turn that changes inside one shows both voices loud in it;
    /// and a new speaker's first syllable often overlaps the last one's.
    public static let handoffOverlap = MediaTime.milliseconds(100)

    /// The rig's `follow:`.
    public let follow: Rig.Follow
    /// The voices, in the rig's order; `levels` takes their peaks in this order.
    public let voices: [String]
    /// Each voice's lens from `follow.lenses` (`nil`: it counts as nobody).
    private let lensOfVoice: [String?]

    /// The lens the program shows, as far as following knows (its own cuts and `manualLens`).
    public private(set) var lens: String
    /// Whether following cuts (`follow on|off`); off, it still tracks who speaks.
    public private(set) var isOn: Bool
    /// Which voices speak now (rule 1), in `voices` order: for the status page.
    public private(set) var speaking: [Bool]

    /// The end of each voice's last chunk above the threshold.
    private var lastHeard: [MediaTime?]
    /// When each voice's current run of speech began; `nil` while it does not speak.
    private var runStart: [MediaTime?]
    /// The lens wanted now (rule 2) and since when; `nil` before the first chunk.
    private var wanted: (lens: String, since: MediaTime)?
    /// When the program's current shot began: the last cut or manual lens, else the first chunk.
    private var shotStart: MediaTime?
    /// Following judges only from this instant on (the end of a manual hold, or `follow on`).
    private var judgingFrom: MediaTime?
    /// The end of the last chunk seen: a later chunk that overlaps it counts from there.
    private var seenUntil: MediaTime?

    /// A director for `voices` (the rig's voice names, in order) whose program starts on `startLens`, following
    /// when `follow.startsOn`.
    public init(follow: Rig.Follow, voices: [String], startLens: String) {
        self.follow = follow
        self.voices = voices
        lensOfVoice = voices.map { follow.lens(ofVoice: $0) }
        lens = startLens
        isOn = follow.startsOn
        speaking = Array(repeating: false, count: voices.count)
        lastHeard = Array(repeating: nil, count: voices.count)
        runStart = Array(repeating: nil, count: voices.count)
    }

    /// Takes one chunk of the mix: `peaks` holds each voice's peak in dBFS over `[from, to)` of the session clock,
    /// after its gain, in `voices` order (`nil`, or a missing entry: silent, −∞ or gone). Returns the cut that falls
    /// due within the chunk, if any (with `hold` and `minimumShot` of zero, the last of several).
    ///
    /// Chunks come in time order; one that overlaps the chunk before counts from where that one ended, one that
    /// ends before it did is ignored, and an empty one (`to <= from`) too.
    public mutating func levels(_ peaks: [Double?], from: MediaTime, to: MediaTime) -> FollowDecision? {
        guard from < to else { return nil }
        var start = from
        if let seenUntil {
            guard to > seenUntil else { return nil }
            start = MediaTime.max(from, seenUntil)
        }
        seenUntil = to
        if shotStart == nil { shotStart = start }

        let loud = voices.indices.map { index in
            // A NaN peak compares false: silent.
            index < peaks.count && (peaks[index].map { $0 > follow.thresholdDBFS } ?? false)
        }
        for index in voices.indices where loud[index] {
            if runStart[index] == nil { runStart[index] = start }
            lastHeard[index] = to
        }
        // The handoff (rule 1): a silent voice stops speaking when a voice that has a lens began to speak at or
        // after the instant it fell silent.
        for index in voices.indices where !loud[index] && runStart[index] != nil {
            guard let heard = lastHeard[index] else { continue }
            let handedOver = voices.indices.contains { other in
                other != index && lensOfVoice[other] != nil
                    && (runStart[other].map { $0.saturatingAdding(Self.handoffOverlap) >= heard } ?? false)
            }
            if handedOver { runStart[index] = nil }
        }

        // The instants inside the chunk where a release runs out split it into stretches of steady speech.
        var edges: [MediaTime] = []
        for index in voices.indices where !loud[index] && runStart[index] != nil {
            guard let heard = lastHeard[index] else { continue }
            let end = heard.saturatingAdding(Self.release)
            if start < end, end < to, !edges.contains(end) { edges.append(end) }
        }
        edges.sort()
        var decision: FollowDecision?
        for (stretchStart, stretchEnd) in zip([start] + edges, edges + [to]) {
            if let cut = stretch(from: stretchStart, to: stretchEnd, loud: loud) { decision = cut }
        }
        return decision
    }

    /// A person chose `lens` at `at`: the program shows it from then, and following pauses for
    /// `follow.manualHold`.
    public mutating func manualLens(_ lens: String, at: MediaTime) {
        self.lens = lens
        shotStart = at
        let resume = at.saturatingAdding(follow.manualHold)
        judgingFrom = judgingFrom.map { MediaTime.max($0, resume) } ?? resume
    }

    /// `follow on|off` at `at`. Switched on, following judges from `at`: a lens must be wanted for `hold` after it
    /// before the first cut.
    public mutating func setOn(_ on: Bool, at: MediaTime) {
        if on, !isOn { judgingFrom = judgingFrom.map { MediaTime.max($0, at) } ?? at }
        isOn = on
    }

    /// One stretch `[from, to)` in which no release runs out: who speaks, the lens wanted, and a cut if one
    /// falls due before `to`.
    private mutating func stretch(from: MediaTime, to: MediaTime, loud: [Bool]) -> FollowDecision? {
        var counted: [Int] = []
        for index in voices.indices {
            if !loud[index], runStart[index] != nil,
               !(lastHeard[index].map { from < $0.saturatingAdding(Self.release) } ?? false) {
                runStart[index] = nil
            }
            speaking[index] = loud[index] || runStart[index] != nil
            if speaking[index], lensOfVoice[index] != nil { counted.append(index) }
        }
        var lenses: [String] = []
        for index in counted {
            if let lens = lensOfVoice[index], !lenses.contains(lens) { lenses.append(lens) }
        }
        let wantedLens = lenses.count == 1 ? lenses[0] : lenses.isEmpty ? follow.nobody : follow.both
        if wanted?.lens != wantedLens { wanted = (wantedLens, from) }
        guard isOn, let wanted, wanted.lens != lens else { return nil }

        var due = wanted.since
        if let judgingFrom { due = MediaTime.max(due, judgingFrom) }
        due = due.saturatingAdding(follow.hold)
        if let shotStart { due = MediaTime.max(due, shotStart.saturatingAdding(follow.minimumShot)) }
        guard due < to else { return nil }
        let at = MediaTime.max(due, from)
        lens = wanted.lens
        shotStart = at
        return FollowDecision(lens: wanted.lens, voices: counted.map { voices[$0] }, at: at)
    }
}
