/// Turns a rig file's node tree into a validated `Rig`, collecting every problem of the file (not only the first)
/// as positioned diagnostics. Pure Swift: the tree may come from libyaml (PauseCamSystem's `YAMLParser`) or be
/// built by hand in a test.
///
/// One file per section of the rig (`+Output`, `+Audio`, `+Lenses`, `+LensSource`, `+Presets`, `+Scripts`), each
/// declaring its keys once as a `RigKey` enum; `+Fields` and `+Values` hold the building blocks they share.
///
/// Values keep their written text where Core must not interpret the machine (`output.directory` keeps its `~` and
/// `$XDG_VIDEOS_DIR`; the composition root expands them). Messages have the form `KEY.PATH: what is wrong`.
public struct RigDecoder {
    private var diagnostics: [RigDiagnostic] = []
    /// What will not work as written but does not stop the rig (`RigWarning`).
    private var warnings: [RigWarning] = []
    /// What the machine the rig will run on says about its movie files and its control socket.
    let surroundings: RigSurroundings
    /// Where `output.name` is written, when it is: a name too long for a file is reported there.
    var outputNameMark: SourceMark?
    /// Where `output.directory` is written, when it is: an unusable folder is warned about there.
    var outputDirectoryMark: SourceMark?
    /// `output.iso`, read once the lenses are declared (it names them).
    var outputIsoNode: YAMLNode?

    private init(surroundings: RigSurroundings) { self.surroundings = surroundings }

    /// The rig, or every problem found. `surroundings` answers what only the machine knows (whether a movie file is
    /// one, where the control socket goes); the default asks nothing.
    public static func decode(_ root: YAMLNode, surroundings: RigSurroundings = .unasked) throws(RigError) -> Rig {
        var decoder = RigDecoder(surroundings: surroundings)
        if var rig = decoder.rig(root), decoder.diagnostics.isEmpty {
            rig.warnings = decoder.warnings.sorted { $0.mark < $1.mark }
            return rig
        }
        if decoder.diagnostics.isEmpty {
            preconditionFailure("RigDecoder produced no rig and no diagnostic")
        }
        throw RigError(decoder.diagnostics)
    }

    /// The keys of the rig file's top level.
    enum TopKey: String, RigKey {
        case name, output, audio, lenses
        case defaultLens = "default_lens"
        case standby
        case onAttach = "on_attach"
        case maxDigitalZoom = "max_digital_zoom"
        case hold
        case zoomPresets = "zoom_presets"
        case exposurePresets = "exposure_presets"
        case scripts
        case web
        case countdown
        case keys
        case watchdog
        case group
        case follow
        case live
        case preroll
        case timecode
        case osc
        case tally
    }

    /// The range `max_digital_zoom` may take: below 1 would forbid the whole frame; beyond 10 a centre crop of a
    /// 1080p picture is under 200 pixels wide, blur rather than zoom.
    static let digitalZoomRange = 1.0...10.0

    // MARK: The rig

    private mutating func rig(_ root: YAMLNode) -> Rig? {
        if root.isNull {
            report("the rig file is empty; it needs at least \"name\" and \"lenses\"", at: root.mark, path: .root)
            return nil
        }
        guard let top = fields(root, .root, TopKey.self, required: [.name, .lenses]) else { return nil }
        let name = top[.name].flatMap { text($0, .root.child(TopKey.name)) }
        var output = top[.output].map { outputSettings($0, .root.child(TopKey.output)) } ?? Rig.OutputSettings(preset: EncoderPresetChoice.auto)
        // Names as declared, even of entries with errors, so one bad lens does not cascade into "unknown lens".
        let lensNames = Self.declaredNames(top[.lenses])
        let audio = top[.audio].map { audioInput($0, .root.child(TopKey.audio), lenses: lensNames) } ?? Rig.AudioInput()
        let lenses = top[.lenses].map { self.lenses($0, .root.child(TopKey.lenses)) } ?? []
        if let node = outputIsoNode {
            output.iso = isoLenses(node, .root.child(TopKey.output).child(OutputKey.iso), lenses: lensNames)
            output.isoMark = node.mark
            warnIsoRates(lenses.filter { output.iso.contains($0.name) }, movieRate: output.rate, at: node.mark,
                         path: .root.child(TopKey.output).child(OutputKey.iso))
        }
        var defaultLens = lensNames.first ?? ""
        if let node = top[.defaultLens], let d = text(node, .root.child(TopKey.defaultLens)) {
            if lensNames.contains(d) { defaultLens = d } else {
                report("unknown lens \"\(d)\"" + suggestion(d, lensNames, orList: true), at: node.mark,
                       path: .root.child(TopKey.defaultLens))
            }
        }
        let standby = top[.standby].flatMap { choice($0, .root.child(TopKey.standby), Rig.Standby.self) } ?? .hot
        let onAttach = top[.onAttach].flatMap {
            choice($0, .root.child(TopKey.onAttach), Rig.AttachPolicy.self)
        } ?? .switch
        // An invalid limit is reported once; presets are then held to the widest limit, not blamed for it.
        let maxDigitalZoom = top[.maxDigitalZoom].map {
            number($0, .root.child(TopKey.maxDigitalZoom), min: Self.digitalZoomRange.lowerBound,
                   max: Self.digitalZoomRange.upperBound, inclusiveMin: true, what: "a digital zoom limit from "
                   + "\(CommandParser.formatNumber(Self.digitalZoomRange.lowerBound)) to "
                   + "\(CommandParser.formatNumber(Self.digitalZoomRange.upperBound))")
        }
        let zoomLimit = maxDigitalZoom.map { $0 ?? Self.digitalZoomRange.upperBound } ?? 4
        // How long the last picture is held with no lens delivering, before the no-signal slate.
        let hold = top[.hold].flatMap { duration($0, .root.child(TopKey.hold), max: .seconds(3600), positive: false) }
        let zoomPresets = top[.zoomPresets].map {
            self.zoomPresets($0, .root.child(TopKey.zoomPresets), lenses: lensNames, limit: zoomLimit,
                             limitIsDefault: maxDigitalZoom == nil)
        } ?? []
        let exposurePresets = top[.exposurePresets].map {
            self.exposurePresets($0, .root.child(TopKey.exposurePresets))
        } ?? []
        let parser = CommandParser(lenses: lensNames, zoomPresets: Self.declaredNames(top[.zoomPresets]),
                                   exposurePresets: Self.declaredNames(top[.exposurePresets]), scripts: nil)
        // Zoom factors are checked only against a whole set of lenses: with one lens in error, the limit would be
        // blamed on the wrong lens.
        let zoomLenses = lenses.count == lensNames.count ? lenses : []
        let scripts = top[.scripts].map {
            self.scripts($0, .root.child(TopKey.scripts), parser: parser, lenses: zoomLenses, maxDigitalZoom: zoomLimit,
                         defaultLens: defaultLens, zoomPresets: zoomPresets)
        } ?? []
        if let problem = surroundings.outputFolderProblem(output.directory) {
            warn(.outputFolder(problem: problem), "\(problem); `run` and `shell` refuse this rig (exit status 2) "
                 + "unless --output names a folder they can write", at: outputDirectoryMark ?? root.mark,
                 path: outputDirectoryMark == nil ? .root : .root.child(TopKey.output).child(OutputKey.directory))
        }
        let web = top[.web].flatMap { webListen($0, .root.child(TopKey.web)) }
        let countdown = top[.countdown].flatMap {
            integer($0, .root.child(TopKey.countdown), in: Command.countdownRange,
                    what: "whole seconds from \(Command.countdownRange.lowerBound) to \(Command.countdownRange.upperBound)")
        }
        let keys = top[.keys].map { hotkeys($0, .root.child(TopKey.keys), parser: parser) } ?? []
        var follow: Rig.Follow?
        if let node = top[.follow], let keyNode = top.keyNode(.follow) {
            follow = self.follow(node, keyNode: keyNode, .root.child(TopKey.follow),
                                 voices: Self.declaredVoiceNames(top[.audio]), lenses: lensNames)
        }
        guard let name else { return nil }
        if let nameNode = top[.name] {
            checkControlSocketPath(rigName: name, at: nameNode.mark)
            checkClipNameLength(output, rigName: name, scripts: scripts.map(\.name), rigNameMark: nameNode.mark)
        }
        var rig = Rig(name: name, output: output, audio: audio, lenses: lenses, defaultLens: defaultLens,
                      standby: standby, onAttach: onAttach, zoomPresets: zoomPresets, exposurePresets: exposurePresets,
                      scripts: scripts, maxDigitalZoom: zoomLimit, hold: hold ?? .seconds(2), web: web)
        rig.countdown = countdown ?? 0
        rig.keys = keys
        if let node = top[.watchdog], let limit = watchdog(node, .root.child(TopKey.watchdog)) { rig.watchdog = limit }
        rig.group = top[.group].flatMap { group($0, .root.child(TopKey.group)) }
        rig.follow = follow
        rig.live = top[.live].flatMap { live($0, .root.child(TopKey.live)) }
        rig.preroll = top[.preroll].flatMap { preroll($0, .root.child(TopKey.preroll), group: rig.group != nil) }
        if let node = top[.timecode], let start = timecode(node, .root.child(TopKey.timecode), rate: output.rate) {
            rig.timecode = start
        }
        rig.osc = top[.osc].flatMap { osc($0, .root.child(TopKey.osc)) }
        rig.tally = top[.tally].flatMap { tally($0, .root.child(TopKey.tally), lenses: lensNames) }
        return rig
    }

    /// The text keys of a mapping of user-chosen names, in order, first occurrence only.
    private static func declaredNames(_ node: YAMLNode?) -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        for pair in node?.pairs ?? [] {
            if let t = pair.key.text, !pair.key.isNull, seen.insert(t).inserted { names.append(t) }
        }
        return names
    }

    /// Records one problem, prefixed with where in the rig it is (`lenses.wide.zoom: …`).
    mutating func report(_ message: String, at mark: SourceMark, path: KeyPath) {
        diagnostics.append(RigDiagnostic(path.isRoot ? message : "\(path): \(message)", at: mark))
    }

    /// Records one warning, prefixed like a problem with where in the rig it is.
    mutating func warn(_ kind: RigWarning.Kind, _ message: String, at mark: SourceMark, path: KeyPath) {
        warnings.append(RigWarning(kind, path.isRoot ? message : "\(path): \(message)", at: mark))
    }

    /// Where in the rig a value sits, printed `lenses.wide.zoom`, `zoom_presets."0.5x".lens`,
    /// `scripts.demo step 3`.
    struct KeyPath: CustomStringConvertible {
        var text: String
        static let root = KeyPath(text: "")
        var isRoot: Bool { text.isEmpty }
        func child(_ key: String) -> KeyPath {
            let plain = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
            let part = plain ? key : "\"\(key)\""
            return KeyPath(text: isRoot ? part : "\(text).\(part)")
        }
        /// The path of a declared key's value.
        func child<Key: RigKey>(_ key: Key) -> KeyPath { child(key.rawValue) }
        func step(_ number: Int) -> KeyPath { KeyPath(text: "\(text) step \(number)") }
        var description: String { text }
    }
}
