/// Scene scripts: a script is a list of steps, or a mapping with `steps:` and `on_error:`; each step is one command
/// of the shell's grammar, checked against the recording states, and remembered with where it was written.
///
/// Every step costs O(1) here (no copy of the steps so far, no Foundation bridging), so a long script loads in
/// time linear in its length.
extension RigDecoder {
    /// The keys of a script written as a mapping (`{on_error: continue, steps: [ … ]}`).
    enum ScriptKey: String, RigKey {
        case onError = "on_error"
        case steps
    }

    /// `scripts:`: each script that decodes cleanly, in file order; every problem is reported. A zoom factor a
    /// step asks for is checked against `lenses` and `maxDigitalZoom` as `zoom` will choose (`LensForZoom`), so a
    /// step beyond the rig fails `check`, not an unattended run half-way. An `exposure` or `focus` step that will
    /// meet a lens without that control (`ScriptControlChecker`, starting from `defaultLens`) is a warning.
    mutating func scripts(_ node: YAMLNode, _ path: KeyPath, parser: CommandParser, lenses: [Rig.Lens] = [],
                          maxDigitalZoom: Double = 4, defaultLens: String = "",
                          zoomPresets: [Rig.ZoomPreset] = []) -> [Rig.Script] {
        guard let entries = namedEntries(node, path, what: "script names") else { return [] }
        var scripts: [Rig.Script] = []
        for (name, keyNode, value) in entries {
            let sp = path.child(name)
            guard let (items, onError) = scriptBody(value, sp) else { continue }
            var steps: [Command] = []
            var marks: [SourceMark] = []
            var checker = ScriptStateChecker()
            var controls = ScriptControlChecker(lenses: lenses, defaultLens: defaultLens, zoomPresets: zoomPresets,
                                                maxDigitalZoom: maxDigitalZoom)
            var ok = true
            var total = MediaTime.zero
            for (index, item) in items.enumerated() {
                let stepPath = sp.step(index + 1)
                guard let command = step(item, stepPath, parser: parser) else { ok = false; continue }
                if let problem = checker.apply(command) {
                    report(problem, at: item.mark, path: stepPath)
                    ok = false
                }
                if case .zoom(.factor(let factor)) = command, !lenses.isEmpty,
                   case .failure(let refusal) = LensForZoom.choose(factor: factor, lenses: lenses,
                                                                   maxDigitalZoom: maxDigitalZoom,
                                                                   optics: OpticalZoom.declared(by: lenses)) {
                    report(refusal.message, at: item.mark, path: stepPath)
                    ok = false
                }
                if let problem = controls.apply(command) {
                    warn(.controlWithoutCamera, problem, at: item.mark, path: stepPath)
                }
                if case .wait(let d) = command {
                    if let sum = try? total.adding(d), sum <= .seconds(7 * 86_400) { total = sum } else {
                        report("the script's waits add up to more than a week", at: item.mark, path: stepPath)
                        ok = false
                    }
                }
                steps.append(command)
                marks.append(item.mark)
            }
            if ok, !checker.hasRecorded {
                report("never records (add a \"record\" step)", at: keyNode.mark, path: sp)
                ok = false
            }
            if ok { scripts.append(Rig.Script(name: name, steps: steps, stepMarks: marks, onError: onError)) }
        }
        return scripts
    }

    /// A script's steps and `on_error`: either a plain list of steps (`on_error: stop`), or a mapping
    /// `{on_error: continue, steps: [ … ]}`. `nil` when neither (reported).
    private mutating func scriptBody(_ node: YAMLNode, _ path: KeyPath) -> ([YAMLNode], Rig.Script.OnError)? {
        if let items = node.items { return (items, .stop) }
        let expected = "expected a list of steps (\"- record: Intro\") or a mapping with \"steps:\" and "
            + "\"on_error:\", found \(node.kindDescription)"
        guard node.pairs != nil else {
            report(expected, at: node.mark, path: path)
            return nil
        }
        guard let f = fields(node, path, ScriptKey.self, required: [.steps]) else { return nil }
        // A bad `on_error` or an unknown key is reported already (the rig fails); the steps are still checked, so
        // one run shows every problem.
        var onError = Rig.Script.OnError.stop
        if let n = f[.onError], let choice = choice(n, path.child(ScriptKey.onError), Rig.Script.OnError.self) {
            onError = choice
        }
        guard let stepsNode = f[.steps] else { return nil }
        guard let items = stepsNode.items else {
            report("expected a list of steps (\"- record: Intro\"), found \(stepsNode.kindDescription)",
                   at: stepsNode.mark, path: path.child(ScriptKey.steps))
            return nil
        }
        return (items, onError)
    }

    /// `- pause`, `- wait 5s` (a whole command line), or `- wait: 5s` (a command word and its argument).
    private mutating func step(_ node: YAMLNode, _ path: KeyPath, parser: CommandParser) -> Command? {
        let result: Result<Command, CommandParser.Failure>
        var argumentMark = node.mark
        switch node.content {
        case .scalar(let line, _):
            if node.isNull {
                report("empty step", at: node.mark, path: path)
                return nil
            }
            let trimmed = Self.trimmingBlanks(Substring(line))
            let wordEnd = trimmed.firstIndex(where: \.isWhitespace) ?? trimmed.endIndex
            let argument = Self.trimmingBlanks(trimmed[wordEnd...])
            result = parser.parseScriptStep(word: String(trimmed[..<wordEnd]),
                                            argument: argument.isEmpty ? nil : String(argument))
        case .mapping(let pairs):
            guard pairs.count == 1, let word = pairs[0].key.text else {
                report("a step is one command, such as \"- record: Intro\" or \"- pause\" (found \(pairs.count) keys)",
                       at: node.mark, path: path)
                return nil
            }
            let argumentNode = pairs[0].value
            argumentMark = argumentNode.mark
            var argument: String?
            if !argumentNode.isNull {
                guard let a = argumentNode.text else {
                    report("the argument of \"\(word)\" must be a single value, not \(argumentNode.kindDescription)",
                           at: argumentNode.mark, path: path)
                    return nil
                }
                argument = a
            }
            result = parser.parseScriptStep(word: word, argument: argument)
        case .sequence:
            report("a step is one command, such as \"- record: Intro\" or \"- pause\", not a list", at: node.mark, path: path)
            return nil
        }
        switch result {
        case .success(let command): return command
        case .failure(let failure):
            report(failure.message, at: failure.part == .word ? node.mark : argumentMark, path: path)
            return nil
        }
    }

    /// `text` without leading and trailing blanks (spaces, tabs, other Unicode space separators: what Foundation's
    /// `.whitespaces` holds), in pure Swift: Foundation's `trimmingCharacters` bridges every step through
    /// NSString, a large share of the time to load a long script.
    static func trimmingBlanks(_ text: Substring) -> Substring {
        func isBlank(_ c: Character) -> Bool {
            if c == " " || c == "\t" { return true }
            guard c.unicodeScalars.count == 1, let scalar = c.unicodeScalars.first, !scalar.isASCII else { return false }
            return scalar.properties.generalCategory == .spaceSeparator
        }
        guard let first = text.firstIndex(where: { !isBlank($0) }) else { return text[text.endIndex...] }
        let last = text.lastIndex(where: { !isBlank($0) })!
        return text[first...last]
    }
}
