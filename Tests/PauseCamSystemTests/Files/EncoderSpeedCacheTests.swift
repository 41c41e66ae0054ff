import Foundation
import PauseCamCore
import PauseCamSystem
import XCTest

/// The encoder speed cache behind `preset: auto`: keyed by machine, size and rate; a corrupt file reads as empty.
final class EncoderSpeedCacheTests: XCTestCase {
    private func folder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-speed-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    private let measured = EncoderSpeedMeasurement(width: 1280, height: 720, rate: FrameRate(30), samples: [
        .init(preset: "ultrafast", framesPerSecond: 241), .init(preset: "superfast", framesPerSecond: 63.5),
    ])

    func testAStoredMeasurementIsReadBackForItsSizeRateAndMachineOnly() throws {
        let directory = try folder()
        let cache = EncoderSpeedCache(directory: directory, machine: "Test CPU × 2 cores")
        XCTAssertNil(cache.measurement(width: 1280, height: 720, rate: FrameRate(30)))
        try cache.store(measured)
        XCTAssertEqual(cache.measurement(width: 1280, height: 720, rate: FrameRate(30)), measured)
        XCTAssertNil(cache.measurement(width: 1920, height: 1080, rate: FrameRate(30)))
        XCTAssertNil(cache.measurement(width: 1280, height: 720, rate: FrameRate(60)))
        XCTAssertNil(EncoderSpeedCache(directory: directory, machine: "Test CPU × 4 cores")
            .measurement(width: 1280, height: 720, rate: FrameRate(30)))
        // Another size is added beside, not over, the first.
        var other = measured
        other.width = 640
        other.height = 360
        try cache.store(other)
        XCTAssertEqual(cache.measurement(width: 1280, height: 720, rate: FrameRate(30)), measured)
        XCTAssertEqual(cache.measurement(width: 640, height: 360, rate: FrameRate(30)), other)
    }

    func testACorruptCacheReadsAsEmptyAndIsReplacedByTheNextStore() throws {
        let directory = try folder()
        let cache = EncoderSpeedCache(directory: directory, machine: "Test CPU × 2 cores")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for garbage in ["{not json", "[]", "{\"version\": 1, \"entries\": {\"x\": 3}}", ""] {
            try garbage.write(toFile: cache.path, atomically: true, encoding: .utf8)
            XCTAssertNil(cache.measurement(width: 1280, height: 720, rate: FrameRate(30)), garbage)
        }
        try cache.store(measured)
        XCTAssertEqual(cache.measurement(width: 1280, height: 720, rate: FrameRate(30)), measured)
    }

    func testTheDefaultFolderFollowsXDGThenHome() {
        XCTAssertEqual(EncoderSpeedCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"]),
                       "/x/pausecam")
        XCTAssertEqual(EncoderSpeedCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]),
                       "/h/.cache/pausecam")
        XCTAssertEqual(EncoderSpeedCache.defaultDirectory(environment: ["HOME": "/h"]), "/h/.cache/pausecam")
    }

    func testTheMeterMeasuresFastestFirstAndStopsAtTheFirstTooSlow() throws {
        // A tiny canvas at an impossible rate: ultrafast is measured and found too slow, so nothing else is.
        let measurement = try EncoderSpeedMeter.measure(width: 64, height: 64, rate: FrameRate(1_000_000),
                                                        burstFrames: 4)
        XCTAssertEqual(measurement.samples.map(\.preset), ["ultrafast"])
        XCTAssertGreaterThan(measurement.samples[0].framesPerSecond, 0)
        XCTAssertEqual(EncoderPresetChoice.choose(measurement), "ultrafast")
    }
}
