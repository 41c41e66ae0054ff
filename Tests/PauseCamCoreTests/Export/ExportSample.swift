import Foundation
@testable import PauseCamCore

/// A 29.97 fps clip whose scenes straddle the drop-frame minute and ten-minute boundaries, with markers whose
/// text needs escaping in every format.
enum ExportSample {
    static let rate = FrameRate(30000, 1001)
    /// Scenes as (name, first frame, end frame).
    static let scenes: [(String, Int64, Int64)] = [("Intro", 0, 1800), ("Interview", 1800, 17982),
                                                    ("Interview", 17982, 18500)]
    /// Markers as (text, frame, scene index).
    static let markers: [(String, Int64, Int)] = [("Laugh", 450, 1), ("Key | point, \"quoted\"", 1800, 2),
                                                  ("=SUM(A1)", 17990, 3)]

    static func seconds(_ frame: Int64) -> Double { Double(frame) * 1001 / 30000 }

    static func sidecar(fps: Double = 30000.0 / 1001) -> Sidecar {
        let sceneValues = scenes.enumerated().map { index, scene in
            Sidecar.Scene(index: index + 1, name: scene.0, title: scene.0, start: seconds(scene.1),
                          duration: seconds(scene.2) - seconds(scene.1), lenses: [],
                          markers: markers.filter { $0.2 == index + 1 }.map {
                              Sidecar.Marker(time: seconds($0.1), text: $0.0)
                          })
        }
        return Sidecar(rig: "Virtual rig", movie: "clip.mov", complete: true, started: "2026-12-01T05:00:00Z",
                       stopped: "2026-12-01T05:11:00Z", duration: seconds(18500),
                       video: .init(codec: "h264", width: 1920, height: 1080, fps: fps, framesWritten: 18500,
                                    framesDropped: 0, lateFramesDropped: 0),
                       audio: .init(codec: "aac", sampleRate: 48_000, channels: 1, samplesWritten: 0,
                                    lateSamplesDropped: 0),
                       scenes: sceneValues, pauses: [], devices: [], warnings: [])
    }

    static func timeline() throws -> ExportTimeline { try ExportTimeline(sidecar: sidecar()) }
}
