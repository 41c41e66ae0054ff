import Foundation
import PauseCamCore

/// Gathers `DoctorFacts` on this machine for `pausecam doctor`: groups and device nodes, the cameras through udev
/// (as `pausecam devices` lists them), the rig's matches and USB plan (as `check` and `devices --rig` make them),
/// the sound cards and whether the rig's microphone opens, the output folder, the clock source and the kernel
/// log. It reads and opens, never streams, records, creates or changes anything. The encoder's speed comes from
/// the caller, which owns measuring and its cache.
public enum DoctorFactGatherer {
    /// Where the kernel names its clock source.
    public static let clockSourcePath = "/sys/devices/system/clocksource/clocksource0/current_clocksource"

    /// The facts for `rig` (or the machine alone when `nil`), its movies going to `outputDirectory` (already
    /// expanded), judged against `storagePolicy`'s thresholds.
    public static func gather(rig: Rig?, outputDirectory: String?, storagePolicy: StoragePolicy,
                              encoder: DoctorFacts.Encoder?) -> DoctorFacts {
        let cameraLenses = rig?.lenses.filter { if case .camera = $0.source { return true } else { return false } }
        var facts = DoctorFacts(user: UserAccounts.current(), videoNodes: DeviceNodeAccess.videoNodes(),
                                soundNodes: DeviceNodeAccess.soundNodes(), rigName: rig?.name,
                                needsCameras: cameraLenses.map { !$0.isEmpty } ?? true,
                                needsSound: rig.map { rig in
                                    switch rig.audio.device {
                                    case .none, .virtual: return false
                                    default: return true
                                    }
                                } ?? true,
                                clockSource: clockSource(), kernelLog: KernelLogReader.read())
        let buses = (try? UdevUSBTopology.buses()) ?? []
        let controllers = Dictionary(buses.map { ($0.number, $0.controller) }, uniquingKeysWith: { first, _ in first })
        var described: [CameraDescription] = []
        do {
            described = try UdevDeviceManager().describeCameras()
        } catch {
            facts.cameras = .notReadable("\(error)")
        }
        var match: CameraMatcher.Result?
        if let rig {
            do {
                match = try CameraMatcher.match(described.map(\.identity), to: rig.lenses)
            } catch {
                facts.matchError = "rig \"\(rig.name)\": \(error)"
            }
        }
        if case .read = facts.cameras {
            facts.cameras = .read(described.map { camera in
                DoctorFacts.Camera(description: CameraMatcher.describe(camera.identity),
                                   placement: camera.usbPlacement,
                                   controller: camera.usbPlacement.flatMap { controllers[$0.bus] ?? nil },
                                   problem: camera.problem, lens: match?.lens(servedBy: camera.identity))
            })
        }
        if let rig {
            facts.lenses = rig.lenses.map { lens in
                switch lens.source {
                case .virtual: return .init(lens: lens.name, outcome: .notACamera("virtual"))
                case .file(let path, _): return .init(lens: lens.name, outcome: .notACamera("file \(path)"))
                case .camera(let rule):
                    if let camera = match?.camera(for: lens.name) {
                        return .init(lens: lens.name, outcome: .camera(CameraMatcher.describe(camera)))
                    }
                    return .init(lens: lens.name, outcome: .noCamera(rule: "\(rule)"))
                }
            }
            if let cameraLenses, !cameraLenses.isEmpty {
                let (loads, unplanned) = USBBandwidthCheck.loads(rig: rig, cameras: described, match: match,
                                                                 buses: buses)
                // The plan `check` prints: with `standby: auto`, each bus hot or cold as a session would run it.
                facts.usbPlan = USBBandwidthCheck.plan(loads, buses: buses, standby: rig.standby).plan
                facts.unplannedLenses = unplanned
            }
        }
        let cards: [MicrophoneIdentity]
        do {
            cards = try UdevSoundCards().microphones()
            facts.microphones = .read(cards.map { card in
                "card \(card.card) \"\(card.name)\" (ALSA \(card.pcmName))" + (card.usb.map { " usb \($0)" } ?? "")
            })
        } catch {
            cards = []
            facts.microphones = .notReadable("\(error)")
        }
        if let webcam = rig?.live?.webcam { facts.webcam = V4L2LoopbackFinder().examine(.init(webcam)) }
        if let rig {
            facts.rigMicrophone = microphone(rig.audio.device, cards: cards, match: match)
            let plan = VoiceCardPlan(voices: rig.audio.voices)
            facts.voiceCards = plan.cards.map { card in
                let names = card.voices.map { rig.audio.voices[$0].name }.joined(separator: ", ")
                guard let device = DeviceHub.audioDevice(of: card.source) else {
                    return DoctorFacts.VoiceCard(voices: names, microphone: .virtual)
                }
                return DoctorFacts.VoiceCard(voices: names, microphone: microphone(device, cards: cards, match: match))
            }
            facts.microphoneRequired = rig.audio.required
        }
        if let outputDirectory {
            facts.outputFolder = OutputFolderInspection.inspect(outputDirectory, policy: storagePolicy)
        }
        facts.encoder = encoder
        return facts
    }

    /// Whether the rig's microphone opens for capture now (opened and closed at once; nothing is read).
    static func microphone(_ device: Rig.AudioInput.Device, cards: [MicrophoneIdentity],
                           match: CameraMatcher.Result?) -> DoctorFacts.RigMicrophone {
        let pcm: String
        var card: MicrophoneIdentity?
        switch device {
        case .none: return .none
        case .virtual: return .virtual
        case .alsa(let name):
            pcm = name
            card = cards.first { MicrophoneCardRule.picks($0, for: device, lensCard: nil) }
        case .matched(let rule):
            do {
                card = try UdevSoundCards().microphone(matching: rule)
            } catch {
                return .unusable(described: "matching \(rule)", reason: "\(error)")
            }
            pcm = card!.pcmName
        case .ofLens(let lens):
            guard let node = match?.camera(for: lens)?.devicePath else {
                return .unusable(described: "of lens \(lens)", reason: "lens \(lens) has no camera plugged in, so "
                                 + "its microphone cannot be found")
            }
            do {
                card = try UdevSoundCards().microphone(ofCameraNode: node)
            } catch {
                return .unusable(described: "of lens \(lens)", reason: "\(error)")
            }
            pcm = card!.pcmName
        }
        do {
            let opened = try ALSAPCM(name: pcm)
            opened.close()
            return .opens(pcm: pcm, card: card.map { "card \($0.card) \"\($0.name)\"" })
        } catch {
            return .unusable(described: "\"\(pcm)\"", reason: "\(error)")
        }
    }

    /// The kernel's current clock source, or why it cannot be read.
    static func clockSource() -> DoctorFacts.Reading<String> {
        do {
            let text = try String(contentsOfFile: clockSourcePath, encoding: .utf8)
            return .read(text.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            return .notReadable("\(clockSourcePath): \((error as NSError).localizedDescription)")
        }
    }
}
