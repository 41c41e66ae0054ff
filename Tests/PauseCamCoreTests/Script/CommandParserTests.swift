import XCTest
@testable import PauseCamCore

/// The one command grammar: typed lines and script steps.
final class CommandParserTests: XCTestCase {
    let parser = CommandParser(lenses: ["wide", "main", "tele"], zoomPresets: ["0.5x", "1x", "2x", "3x"],
                               exposurePresets: ["bright", "night"], scripts: ["demo", "interview"])

    func parse(_ line: String) -> Command? { try? parser.parse(line).get() }
    func failure(_ line: String) -> String? {
        if case .failure(let f) = parser.parse(line) { return f.message }
        return nil
    }

    func testEveryCommandWord() {
        let table: [(String, Command)] = [
            ("record", .record(name: nil)), ("record My Intro", .record(name: "My Intro")),
            ("record \"Intro\"", .record(name: "Intro")),
            ("pause", .pause), ("  resume  ", .resume(name: nil)), ("resume Answer", .resume(name: "Answer")),
            ("stop", .stop), ("lens tele", .lens(.named("tele"))), ("lens next", .lens(.next)),
            ("zoom 2x", .zoom(.preset("2x"))), ("zoom 1.5", .zoom(.factor(1.5))), ("zoom 1.5x", .zoom(.factor(1.5))),
            ("zoom 4x", .zoom(.factor(4))),
            ("exposure bright", .exposure(.preset("bright"))), ("exposure auto", .exposure(.auto)),
            ("exposure +0.7", .exposure(.bias(0.7))), ("exposure -1", .exposure(.bias(-1))),
            ("focus auto", .focus(.auto)), ("focus 40", .focus(.manual(40))),
            ("focus at 0.5 0.5", .focus(.point(x: 0.5, y: 0.5))), ("focus AT 0 1", .focus(.point(x: 0, y: 1))),
            ("focus at  0.125   0.75 ", .focus(.point(x: 0.125, y: 0.75))),
            ("mark good take", .mark("good take")), ("wait 5s", .wait(.seconds(5))),
            ("wait 400ms", .wait(.milliseconds(400))), ("status", .status), ("devices", .devices),
            ("run demo", .run(script: "demo")), ("last", .last(play: false)), ("last play", .last(play: true)),
            ("help", .help(topic: nil)), ("help zoom", .help(topic: "zoom")), ("quit", .quit), ("PAUSE", .pause),
        ]
        for (line, command) in table { XCTAssertEqual(parse(line), command, line) }
    }

    func testErrorsSayWhatIsWrong() {
        let table: [(String, String)] = [
            ("recrod", "unknown command \"recrod\"; did you mean \"record\"?"),
            ("xyzzy", "unknown command \"xyzzy\"; type \"help\" for the list"),
            ("", "empty command"),
            ("pause now", "\"pause\" takes no argument (got \"now\")"),
            ("lens", "\"lens\" needs a lens name or \"next\""),
            ("lens mian", "unknown lens \"mian\"; did you mean \"main\"?"),
            ("lens zoom", "unknown lens \"zoom\" (known: wide, main, tele)"),
            ("zoom closeup", "unknown zoom preset \"closeup\" (known: 0.5x, 1x, 2x, 3x)"),
            ("zoom 0", "zoom factor 0 is out of range (more than 0, at most 100)"),
            ("exposure brigth", "unknown exposure preset \"brigth\"; did you mean \"bright\"?"),
            ("exposure brite", "unknown exposure preset \"brite\" (known: bright, night)"),
            ("exposure +11", "exposure bias +11 EV is out of range (-10 to +10)"),
            ("focus near", "focus \"near\" is neither \"auto\" nor a position (0 or more)"),
            ("focus", "\"focus\" needs \"auto\", a focus position such as 40, or \"at X Y\""),
            ("focus at 0.5", "focus at X Y takes two numbers from 0 to 1 (the point of the picture, from its left "
                + "and top), e.g. focus at 0.5 0.5 (got \"at 0.5\")"),
            ("focus at left top", "focus at X Y takes two numbers from 0 to 1 (the point of the picture, from its "
                + "left and top), e.g. focus at 0.5 0.5 (got \"at left top\")"),
            ("focus at 0.5 0.5 0.5", "focus at X Y takes two numbers from 0 to 1 (the point of the picture, from "
                + "its left and top), e.g. focus at 0.5 0.5 (got \"at 0.5 0.5 0.5\")"),
            ("focus at 1.5 0.5", "focus at 1.5 0.5 is outside the picture: focus at X Y takes two numbers from 0 "
                + "to 1 (the point of the picture, from its left and top), e.g. focus at 0.5 0.5"),
            ("focus at 0.5 -0.1", "focus at 0.5 -0.1 is outside the picture: focus at X Y takes two numbers from 0 "
                + "to 1 (the point of the picture, from its left and top), e.g. focus at 0.5 0.5"),
            ("wait 5x", "\"5x\" is not a duration (try 5s, 2.5s, 400ms, 1m30s)"),
            ("wait", "\"wait\" needs a duration such as 5s, 2.5s or 400ms"),
            ("mark rename", "mark rename N TEXT names marker N (the number mark's reply gave), e.g. mark rename 2 "
                + "good take (got \"mark rename\")"),
            ("mark rename 2", "mark rename N TEXT names marker N (the number mark's reply gave), e.g. mark rename 2 "
                + "good take (got \"mark rename 2\")"),
            ("mark rename two good", "\"two\" is not a marker number (1 to 1000000): mark rename N TEXT names marker "
                + "N (the number mark's reply gave), e.g. mark rename 2 good take"),
            ("mark rename 0 x", "\"0\" is not a marker number (1 to 1000000): mark rename N TEXT names marker N (the "
                + "number mark's reply gave), e.g. mark rename 2 good take"),
            ("mark rename 99999999999999999999 x", "\"99999999999999999999\" is not a marker number (1 to 1000000): "
                + "mark rename N TEXT names marker N (the number mark's reply gave), e.g. mark rename 2 good take"),
            ("mark rename 3 \"\"", "mark rename N TEXT names marker N (the number mark's reply gave), e.g. mark "
                + "rename 2 good take (got \"mark rename 3 \"\"\")"),
            ("run dmeo", "unknown script \"dmeo\"; did you mean \"demo\"?"),
            ("last show", "\"last\" takes nothing or \"play\" (got \"show\")"),
            ("help zom", "unknown command \"zom\"; did you mean \"zoom\"?"),
        ]
        for (line, message) in table { XCTAssertEqual(failure(line), message, line) }
    }

    /// `mark` alone is a numbered marker; `mark rename N TEXT` names one afterwards; each prints back as typed.
    func testMarkWithoutTextAndMarkRename() {
        let table: [(String, Command)] = [
            ("mark", .mark(nil)), ("MARK  ", .mark(nil)),
            ("mark renamed take", .mark("renamed take")),
            ("mark rename 2 good take", .renameMarker(number: 2, name: "good take")),
            ("mark RENAME  12   \"the end\"", .renameMarker(number: 12, name: "the end")),
            ("mark rename 1000000 x", .renameMarker(number: 1_000_000, name: "x")),
        ]
        for (line, command) in table {
            XCTAssertEqual(parse(line), command, line)
            XCTAssertEqual(parse(CommandParser.line(for: command)), command, "\(command) prints back as it parses")
            XCTAssertEqual(command.word, "mark")
            XCTAssertTrue(command.isScriptStep)
        }
        XCTAssertEqual(try? parser.parseScriptStep(word: "mark", argument: nil).get(), .mark(nil))
        XCTAssertEqual(try? parser.parseScriptStep(word: "mark", argument: "rename 1 intro").get(),
                       .renameMarker(number: 1, name: "intro"))
        var checker = ScriptStateChecker()
        XCTAssertNotNil(checker.apply(.renameMarker(number: 1, name: "x")), "mark rename before record")
    }

    func testWithoutARigNamesAreAcceptedForTheCallerToResolve() {
        let open = CommandParser()
        XCTAssertEqual(try? open.parse("lens anything").get(), .lens(.named("anything")))
        XCTAssertEqual(try? open.parse("zoom 2x").get(), .zoom(.factor(2)))
        XCTAssertEqual(try? open.parse("zoom close").get(), .zoom(.preset("close")))
        XCTAssertEqual(try? open.parse("exposure night").get(), .exposure(.preset("night")))
    }

    func testScriptStepsRejectShellOnlyCommands() {
        for word in ["devices", "run", "last", "help", "quit"] {
            let argument = word == "run" ? "demo" : nil
            guard case .failure(let f) = parser.parseScriptStep(word: word, argument: argument) else {
                return XCTFail("\(word) accepted as a script step")
            }
            XCTAssertEqual(f.message, "\"\(word)\" works only in the shell, not as a script step")
            XCTAssertEqual(f.part, .word)
        }
        XCTAssertEqual(try? parser.parseScriptStep(word: "mark", argument: "  spaced").get(), .mark("  spaced"))
    }

    /// `exit` and `q` leave the shell as `quit` does (and `help` knows them); an unknown help topic is an error.
    func testExitAndQAreQuitAndHelpKnowsThem() {
        XCTAssertEqual(parse("exit"), .quit)
        XCTAssertEqual(parse("q"), .quit)
        XCTAssertEqual(parse("  EXIT "), .quit)
        XCTAssertEqual(parse("help exit"), .help(topic: "quit"))
        XCTAssertEqual(parse("help q"), .help(topic: "quit"))
        XCTAssertEqual(failure("exit now"), "\"exit\" takes no argument (got \"now\")")
        XCTAssertEqual(failure("help bogus"), "unknown command \"bogus\"; did you mean \"focus\"?")
        guard case .failure(let step) = parser.parseScriptStep(word: "exit", argument: nil) else {
            return XCTFail("exit accepted as a script step")
        }
        XCTAssertEqual(step.message, "\"quit\" works only in the shell, not as a script step")
    }

    func testFailurePartPointsAtWordOrArgument() {
        guard case .failure(let a) = parser.parse("lens mian"), case .failure(let w) = parser.parse("lnes main") else {
            return XCTFail("expected failures")
        }
        XCTAssertEqual(a.part, .argument)
        XCTAssertEqual(w.part, .word)
    }

    func testPrintedLinesParseBackToTheSameCommand() {
        let commands: [Command] = [
            .record(name: nil), .record(name: "Intro"), .pause, .resume(name: "B"), .stop, .lens(.next),
            .lens(.named("wide")), .zoom(.preset("2x")), .zoom(.factor(1.5)), .exposure(.auto),
            .exposure(.bias(0.7)), .exposure(.bias(-1)), .exposure(.preset("night")), .focus(.auto),
            .focus(.manual(7)), .focus(.point(x: 0.5, y: 0.5)), .focus(.point(x: 0, y: 1)),
            .focus(.point(x: 0.333, y: 0.0625)), .mark("good take"), .wait(.seconds(5)), .wait(.milliseconds(370)),
            .wait(.milliseconds(2500)), .wait(MediaTime(value: 1, timescale: 3)), .status, .devices,
            .run(script: "demo"), .last(play: true), .help(topic: "zoom"), .quit,
        ]
        for command in commands {
            let line = CommandParser.line(for: command)
            XCTAssertEqual(parse(line), command, line)
        }
    }
}
