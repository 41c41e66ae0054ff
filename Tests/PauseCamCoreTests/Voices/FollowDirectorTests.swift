import XCTest
@testable import PauseCamCore

/// `FollowDirector`: scripted speech fed as 10 ms chunks of levels (speaking −12 dBFS, silent `nil`), and the cuts
/// it asks for — the conversation, a manual lens, the shortest shot, a cough, and a table of edges.
final class FollowDirectorTests: XCTestCase {
    /// Spans of the session clock in milliseconds in which one voice speaks.
    typealias Speech = [Range<Int64>]

    /// A manual lens or `follow on|off` at a millisecond, given before the chunk that starts there.
    enum Action {
        case manual(String, Int64)
        case on(Bool, Int64)
        var milliseconds: Int64 {
            switch self {
            case .manual(_, let time), .on(_, let time): time
            }
        }
    }

    /// The cuts of `director` fed `speech` (one entry per voice) in `chunk`-millisecond chunks from 0 to
    /// `until`, as (lens, voices, milliseconds) for readable failures.
    static func cuts(_ director: inout FollowDirector, _ speech: [Speech], until: Int64, chunk: Int64 = 10,
                     actions: [Action] = [], level: Double = -12) -> [Cut] {
        var cuts: [Cut] = []
        var pending = actions.sorted { $0.milliseconds < $1.milliseconds }
        var time: Int64 = 0
        while time < until {
            while let action = pending.first, action.milliseconds <= time {
                pending.removeFirst()
                switch action {
                case .manual(let lens, let at): director.manualLens(lens, at: .milliseconds(at))
                case .on(let on, let at): director.setOn(on, at: .milliseconds(at))
                }
            }
            let end = min(time + chunk, until)
            let peaks: [Double?] = speech.map { spans in spans.contains { $0.contains(time) } ? level : nil }
            if let decision = director.levels(peaks, from: .milliseconds(time), to: .milliseconds(end)) {
                cuts.append(Cut(decision))
            }
            time = end
        }
        return cuts
    }

    /// A decision in milliseconds (exact: every time here is on the millisecond grid).
    struct Cut: Equatable, CustomStringConvertible {
        var lens: String
        var voices: [String]
        var at: Int64
        init(_ lens: String, _ voices: [String], _ at: Int64) {
            self.lens = lens
            self.voices = voices
            self.at = at
        }
        init(_ decision: FollowDecision) {
            let milliseconds = (try? decision.at.rescaled(to: 1000, rounding: .nearest).value) ?? -1
            XCTAssertEqual(MediaTime.milliseconds(milliseconds), decision.at, "\(decision.at) is on the ms grid")
            self.init(decision.lens, decision.voices, milliseconds)
        }
        var description: String { "\(lens) \(voices) at \(at) ms" }
    }

    static func interview(nobody: String? = nil, hold: MediaTime = .seconds(1),
                          minimumShot: MediaTime = .seconds(2)) -> Rig.Follow {
        Rig.Follow(lenses: [(voice: "host", lens: "main"), (voice: "guest", lens: "tele")], both: "wide",
                   nobody: nobody, minimumShot: minimumShot, hold: hold)
    }

    /// The conversation: host 0–4 s, guest 4–9 s, both 9–11 s, nobody after.
    static let host: Speech = [0..<4_000, 9_000..<11_000]
    static let guest: Speech = [4_000..<11_000]

    func testTheConversationCutsToEachSpeakerAfterTheHoldAndStaysOnBothWhenNobodySpeaks() {
        var director = FollowDirector(follow: Self.interview(), voices: ["host", "guest"], startLens: "main")
        let cuts = Self.cuts(&director, [Self.host, Self.guest], until: 20_000)
        // The guest takes over at 4 s (the host's release ends at once: a handoff), so tele is wanted from 4 s and
        // cut 1 s later; both speak from 9 s: wide at 10 s. After 11 s nobody speaks, and `nobody` defaults to
        // `both`'s lens, which is showing: no further cut.
        XCTAssertEqual(cuts, [Cut("tele", ["guest"], 5_000), Cut("wide", ["host", "guest"], 10_000)])
        XCTAssertEqual(director.lens, "wide")
        XCTAssertEqual(director.speaking, [false, false])
    }

    func testWithANobodyLensItCutsBackAfterTheReleaseAndTheHold() {
        var director = FollowDirector(follow: Self.interview(nobody: "main"), voices: ["host", "guest"],
                                      startLens: "main")
        let cuts = Self.cuts(&director, [Self.host, Self.guest], until: 20_000)
        XCTAssertEqual(FollowDirector.release, .milliseconds(300))
        XCTAssertEqual(cuts, [Cut("tele", ["guest"], 5_000), Cut("wide", ["host", "guest"], 10_000),
                              Cut("main", [], 11_000 + 300 + 1_000)])
    }

    func testTheSameLevelsGiveTheSameCuts() {
        var first = FollowDirector(follow: Self.interview(nobody: "main"), voices: ["host", "guest"], startLens: "main")
        var second = first
        XCTAssertEqual(Self.cuts(&first, [Self.host, Self.guest], until: 20_000),
                       Self.cuts(&second, [Self.host, Self.guest], until: 20_000))
    }

    func testAManualLensHoldsUntilTheManualHoldEnds() {
        var director = FollowDirector(follow: Self.interview(), voices: ["host", "guest"], startLens: "main")
        let cuts = Self.cuts(&director, [Self.host, Self.guest], until: 20_000, actions: [.manual("main", 5_000)])
        // Tele would be due at 5 s; the manual `main` at 5 s holds until 15 s. Wide has been wanted since 9 s
        // (both, then nobody → both's lens), judged from 15 s on: cut 1 s after, not at once.
        XCTAssertEqual(cuts, [Cut("wide", [], 16_000)])
        XCTAssertEqual(director.lens, "wide")
    }

    func testAManualLensThatIsWantedWhenTheHoldEndsCausesNoCut() {
        var director = FollowDirector(follow: Self.interview(), voices: ["host", "guest"], startLens: "main")
        // The guest speaks from 4 s to 20 s; a person picks tele at 4.5 s, before following would.
        let cuts = Self.cuts(&director, [Self.host.prefix(1).map { $0 }, [4_000..<20_000]], until: 20_000,
                             actions: [.manual("tele", 4_500)])
        XCTAssertEqual(cuts, [])
        XCTAssertEqual(director.lens, "tele")
    }

    func testTheMinimumShotDelaysTheNextCut() {
        var director = FollowDirector(follow: Self.interview(), voices: ["host", "guest"], startLens: "main")
        // The guest speaks 4–5.5 s and the host answers at 5.5 s: main is wanted from 5.5 s and its hold ends at
        // 6.5 s, but the tele shot began at 5 s and must last 2 s.
        let cuts = Self.cuts(&director, [[0..<4_000, 5_500..<9_000], [4_000..<5_500]], until: 10_000)
        XCTAssertEqual(cuts, [Cut("tele", ["guest"], 5_000), Cut("main", ["host"], 7_000)])
    }

    func testACoughOfTheOtherVoiceCausesNoCut() {
        // The host speaks throughout; the guest coughs for half a second at 3 s. Both are wanted for the cough and
        // the release (0.8 s), less than the hold.
        var director = FollowDirector(follow: Self.interview(), voices: ["host", "guest"], startLens: "main")
        XCTAssertEqual(Self.cuts(&director, [[0..<10_000], [3_000..<3_500]], until: 10_000), [])
        // The same sound lasting 1.5 s is not a cough: both speak, and wide is cut after the hold (and main again
        // once the wide shot has lasted 2 s).
        var longer = FollowDirector(follow: Self.interview(), voices: ["host", "guest"], startLens: "main")
        XCTAssertEqual(Self.cuts(&longer, [[0..<10_000], [3_000..<4_500]], until: 10_000),
                       [Cut("wide", ["host", "guest"], 4_000), Cut("main", ["host"], 6_000)])
    }

    func testReleaseBridgesTheGapsBetweenWords() {
        let follow = Rig.Follow(lenses: [(voice: "host", lens: "main")], both: "wide", nobody: "tele")
        // Gaps of 250 ms: the host keeps speaking, nothing is cut.
        var director = FollowDirector(follow: follow, voices: ["host"], startLens: "main")
        let words: Speech = stride(from: Int64(0), to: 6_000, by: 1_000).map { $0..<($0 + 750) }
        XCTAssertEqual(Self.cuts(&director, [words], until: 6_000), [])
        // A gap of 2 s is silence: nobody's lens 0.3 s + 1 s after the host stopped.
        var pause = FollowDirector(follow: follow, voices: ["host"], startLens: "main")
        XCTAssertEqual(Self.cuts(&pause, [[0..<3_000, 5_000..<6_000]], until: 4_500), [Cut("tele", [], 4_300)])
        XCTAssertEqual(pause.speaking, [false])
    }

    func testSpeakingIsTrackedForTheStatusPageWhileFollowingIsOff() {
        var follow = Self.interview()
        follow.startsOn = false
        var director = FollowDirector(follow: follow, voices: ["host", "guest"], startLens: "main")
        XCTAssertFalse(director.isOn)
        XCTAssertEqual(Self.cuts(&director, [Self.host, Self.guest], until: 4_500), [])
        XCTAssertEqual(director.speaking, [false, true], "the guest speaks; the host handed over at 4 s")
        // Switched on at 6 s: tele has been wanted since 4 s, judged from 6 s on.
        let cuts = Self.cuts(&director, [Self.host, Self.guest], until: 9_000, actions: [.on(true, 6_000)])
        XCTAssertTrue(director.isOn)
        XCTAssertEqual(cuts, [Cut("tele", ["guest"], 7_000)])
        director.setOn(false, at: .seconds(9))
        XCTAssertEqual(Self.cuts(&director, [Self.host, Self.guest], until: 20_000), [])
    }

    /// Edge cases, each on a fresh director.
    func testEdgeTable() {
        struct Row {
            var why: String
            var follow: Rig.Follow
            var voices: [String]
            var start: String
            var speech: [Speech]
            var until: Int64
            var chunk: Int64 = 10
            var level: Double = -12
            var expected: [Cut]
        }
        let interview = Self.interview()
        let table: [Row] = [
            Row(why: "a voice without a lens counts as nobody", follow: interview, voices: ["host", "guest", "room"],
                start: "tele", speech: [[], [], [0..<5_000]], until: 5_000, expected: [Cut("wide", [], 2_000)]),
            Row(why: "voices that share a lens want that lens, not both",
                follow: Rig.Follow(lenses: [(voice: "a", lens: "tele"), (voice: "b", lens: "tele")], both: "wide",
                                   nobody: "main"),
                voices: ["a", "b"], start: "main", speech: [[0..<5_000], [0..<5_000]], until: 5_000,
                expected: [Cut("tele", ["a", "b"], 2_000)]),
            Row(why: "a peak exactly at the threshold is silence", follow: Self.interview(nobody: "main"),
                voices: ["host", "guest"],
                start: "main", speech: [[], [0..<5_000]], until: 5_000, level: -40, expected: []),
            Row(why: "just above the threshold speaks", follow: interview, voices: ["host", "guest"],
                start: "main", speech: [[], [0..<5_000]], until: 5_000, level: -39.9,
                expected: [Cut("tele", ["guest"], 2_000)]),
            Row(why: "the first shot lasts the minimum too: the cut waits for 2 s, not the 1 s hold",
                follow: interview, voices: ["host", "guest"], start: "main", speech: [[], [0..<5_000]],
                until: 5_000, expected: [Cut("tele", ["guest"], 2_000)]),
            Row(why: "with no hold and no minimum shot, the cut is at the chunk that shows the speaker",
                follow: Self.interview(nobody: "main", hold: .zero, minimumShot: .zero), voices: ["host", "guest"],
                start: "main",
                speech: [[], [1_230..<5_000]], until: 5_000, expected: [Cut("tele", ["guest"], 1_230)]),
            Row(why: "21 ms chunks: the cut falls inside a chunk, at the exact instant",
                follow: interview, voices: ["host", "guest"], start: "main",
                speech: [[0..<4_011], [4_011..<9_000]], until: 9_000, chunk: 21,
                expected: [Cut("tele", ["guest"], 5_011)]),
            Row(why: "a voice the rig's follow does not name, and a follow voice the rig lacks, are ignored",
                follow: Rig.Follow(lenses: [(voice: "ghost", lens: "tele"), (voice: "host", lens: "main")],
                                   both: "wide", nobody: "main"),
                voices: ["host", "extra"], start: "main", speech: [[0..<1_000], [0..<9_000]], until: 9_000,
                expected: []),
        ]
        for row in table {
            var director = FollowDirector(follow: row.follow, voices: row.voices, startLens: row.start)
            XCTAssertEqual(Self.cuts(&director, row.speech, until: row.until, chunk: row.chunk, level: row.level),
                           row.expected, row.why)
        }
    }

    func testChunksOutOfOrderMissingOrNotANumber() {
        var director = FollowDirector(follow: Self.interview(hold: .zero, minimumShot: .zero),
                                      voices: ["host", "guest"], startLens: "main")
        XCTAssertNil(director.levels([nil, -12], from: .milliseconds(10), to: .milliseconds(10)), "empty chunk")
        XCTAssertEqual(director.speaking, [false, false])
        let first = director.levels([nil, -12], from: .milliseconds(100), to: .milliseconds(110))
        XCTAssertEqual(first, FollowDecision(lens: "tele", voices: ["guest"], at: .milliseconds(100)))
        // A chunk that ended before the last one: ignored, even though it is loud.
        XCTAssertNil(director.levels([-12, nil], from: .milliseconds(50), to: .milliseconds(60)))
        XCTAssertEqual(director.speaking, [false, true])
        // One that overlaps it counts from 110 ms.
        XCTAssertNil(director.levels([nil, -12], from: .milliseconds(105), to: .milliseconds(120)))
        // Fewer peaks than voices, and NaN: silent. The guest's release runs out at 420 ms.
        XCTAssertNil(director.levels([.nan], from: .milliseconds(120), to: .milliseconds(400)))
        XCTAssertEqual(director.speaking, [false, true])
        let silence = director.levels([], from: .milliseconds(400), to: .milliseconds(500))
        XCTAssertEqual(silence, FollowDecision(lens: "wide", voices: [], at: .milliseconds(420)))
        XCTAssertEqual(director.speaking, [false, false])
        // Extreme times saturate instead of trapping.
        director.manualLens("main", at: MediaTime(value: .max - 5, timescale: 1000))
        XCTAssertNil(director.levels([-12, nil], from: MediaTime(value: .max - 5, timescale: 1000),
                                     to: MediaTime(value: .max, timescale: 1000)))
    }

    /// Seeded random conversations of three voices in chunks of 10–21 ms: the cuts are the same when fed again,
    /// in time order, each to another lens than the one before, each at least the minimum shot after the last
    /// (and after the start).
    func testRandomConversationsKeepTheRules() {
        let follow = Rig.Follow(lenses: [(voice: "a", lens: "one"), (voice: "b", lens: "two"),
                                         (voice: "c", lens: "three")],
                                both: "wide", nobody: "room", minimumShot: .milliseconds(1_500),
                                hold: .milliseconds(700), manualHold: .seconds(4))
        for seed in UInt64(1)...40 {
            var generator = SplitMix64(seed: seed)
            // Each voice: spans of speech and silence of 50 ms to 3 s, for a minute.
            var speech: [Speech] = []
            for _ in 0..<3 {
                var spans: Speech = []
                var time = Int64.random(in: 0..<2_000, using: &generator)
                while time < 60_000 {
                    let length = Int64.random(in: 50..<3_000, using: &generator)
                    spans.append(time..<(time + length))
                    time += length + Int64.random(in: 50..<3_000, using: &generator)
                }
                speech.append(spans)
            }
            var chunks: [(Int64, Int64)] = []
            var time: Int64 = 0
            while time < 60_000 {
                let end = time + Int64.random(in: 10...21, using: &generator)
                chunks.append((time, end))
                time = end
            }
            let manualAfter = Int64.random(in: 10_000..<50_000, using: &generator)
            let run = { () -> (decisions: [FollowDecision], manualAt: Int64) in
                var director = FollowDirector(follow: follow, voices: ["a", "b", "c"], startLens: "room")
                var decisions: [FollowDecision] = []
                var manualAt = Int64.max
                for (from, to) in chunks {
                    if manualAt == .max, from >= manualAfter {
                        director.manualLens("wide", at: .milliseconds(from))
                        manualAt = from
                    }
                    let peaks: [Double?] = speech.map { spans in spans.contains { $0.contains(from) } ? -20 : nil }
                    if let decision = director.levels(peaks, from: .milliseconds(from), to: .milliseconds(to)) {
                        decisions.append(decision)
                    }
                }
                return (decisions, manualAt)
            }
            let (decisions, manualAt) = run()
            XCTAssertEqual(decisions, run().decisions, "seed \(seed): same input, same cuts")
            XCTAssertFalse(decisions.isEmpty, "seed \(seed): a minute of conversation cuts")
            var lens = "room"
            var shotStart = MediaTime.zero
            var manualApplied = false
            for decision in decisions {
                if !manualApplied, decision.at >= .milliseconds(manualAt) {
                    manualApplied = true
                    lens = "wide"
                    shotStart = .milliseconds(manualAt)
                    XCTAssertGreaterThanOrEqual(decision.at, .milliseconds(manualAt) + follow.manualHold + follow.hold,
                                                "seed \(seed): \(decision) waits for the manual hold, then the hold")
                }
                XCTAssertNotEqual(decision.lens, lens, "seed \(seed): \(decision) cuts to another lens")
                XCTAssertGreaterThanOrEqual(decision.at, shotStart + follow.minimumShot, "seed \(seed): \(decision)")
                lens = decision.lens
                shotStart = decision.at
            }
        }
    }
}
