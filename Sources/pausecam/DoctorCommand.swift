import Foundation
import PauseCamCore
import PauseCamSystem

/// `pausecam doctor [RIG] [--output DIR] [--measure]`: answers "why won't my rig work" in one report — groups and
/// device node permissions, the cameras and where they sit on USB, the rig's lenses matched and its USB bandwidth
/// plan, the microphones, the output folder and its free space, the encoder's speed, a group member's broker and
/// clock (`DoctorCommand+Group`), the clock source and USB trouble in the kernel log. Facts are gathered by `DoctorFactGatherer` and judged by `DoctorExamination`.
///
/// Returns the exit status: 0 when the rig (or, without one, this machine) can record, 1 with the list of
/// blockers. A rig file with errors throws (exit 2, like `check`).
enum DoctorCommand {
    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["output"], flags: ["measure"])
        guard arguments.positional.count <= 1 else {
            throw UsageError("doctor takes at most one rig file; got \(arguments.positional.count)")
        }
        let path = arguments.positional.first
        if path == nil, arguments.flags.contains("measure") || arguments.options["output"] != nil {
            throw UsageError("--measure and --output need a rig file: pausecam doctor RIG --measure")
        }
        let rig = try path.map { try RigLoader.load(path: $0, surroundings: .thisMachine()) }
        let output = rig.map { RigWiring.expandDirectory(arguments.options["output"] ?? $0.output.directory) }
        let encoder = rig.map { encoderFacts(for: $0, measure: arguments.flags.contains("measure")) }
        var facts = DoctorFactGatherer.gather(rig: rig, outputDirectory: output,
                                              storagePolicy: RigWiring.storagePolicy(), encoder: encoder)
        facts.group = rig.flatMap(groupFacts)
        if let rig, case .measured(let measurement, let preset, _)? = encoder {
            let load = isoLoad(of: rig)
            let chosen = preset == EncoderPresetChoice.auto ? load.choose(measurement) : preset
            facts.encoderLoadRefusal = load.refusal(at: chosen, in: measurement,
                                                    presetIsAuto: preset == EncoderPresetChoice.auto)
        }
        let sections = DoctorExamination.sections(of: facts)
        let subject = rig.map { "rig \"\($0.name)\" (\(path!))" } ?? "this machine"
        StandardStreamWriter.output.write(DoctorReport.text(of: sections, subject: subject))
        return DoctorReport.exitStatus(sections)
    }

    /// The encoder's speed at the rig's canvas: from the cache, or measured now with `--measure` (a few seconds;
    /// the cache is refreshed, as `check --measure` does).
    private static func encoderFacts(for rig: Rig, measure: Bool) -> DoctorFacts.Encoder {
        let output = rig.output
        let environment = ProcessInfo.processInfo.environment
        let cache = EncoderSpeedCache(environment: environment)
        if measure {
            do {
                let measurement = try EncoderPresetSetup.measureAndStore(
                    width: output.width, height: output.height, rate: output.rate, cache: cache,
                    environment: environment, notify: { StandardStreamWriter.error.write($0.text + "\n") })
                return .measured(measurement, preset: output.preset, cached: false)
            } catch {
                return .failed("\(error)")
            }
        }
        guard let cached = cache.measurement(width: output.width, height: output.height, rate: output.rate) else {
            return .notMeasured(width: output.width, height: output.height, rate: output.rate)
        }
        return .measured(cached, preset: output.preset, cached: true)
    }
}
