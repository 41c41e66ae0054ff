import Foundation

/// SMPTE timecode for one frame rate: frame counts to `HH:MM:SS:FF` and back, exactly (integers only).
///
/// Editors label frames, not seconds: at 30 fps frame 1800 is `00:01:00:00`. At 29.97 (30000/1001) and 59.94 the
/// labels run slower than the wall clock, so drop-frame timecode skips the labels `;00` and `;01` (`;00`–`;03` at
/// 59.94) at the start of every minute except each tenth, and keeps the label within a few ms of real time;
/// its separator before the frames is `;`. 23.976 has no drop-frame form and counts 24 labels a second.
///
/// Like a timecode generator, the count wraps at 24 hours: the frame after `23:59:59:29` is `00:00:00:00`, because
/// EDLs and editors know no hour 24.
public struct Timecode: Sendable, Equatable {
    /// The movie's frame rate.
    public let rate: FrameRate
    /// Labels per second: the rate rounded to a whole number (30 for 29.97).
    public let nominalFramesPerSecond: Int64
    /// Labels dropped each minute (2 at 29.97, 4 at 59.94, 0 otherwise).
    public let droppedPerMinute: Int64
    /// Frames from `00:00:00:00` to the next `00:00:00:00` 24 hours later (2,589,408 at 29.97 drop-frame).
    public let framesPerDay: Int64

    /// The timecode of `rate`: drop-frame for 30000/1001 and 60000/1001, non-drop for every other rate.
    public init(rate: FrameRate) {
        self.rate = rate
        let numerator = Int64(rate.numerator), denominator = Int64(rate.denominator)
        nominalFramesPerSecond = max(1, (numerator + denominator / 2) / denominator)
        let ntsc = denominator == 1001 && numerator % 1000 == 0
        droppedPerMinute = ntsc && nominalFramesPerSecond % 30 == 0 ? nominalFramesPerSecond / 15 : 0
        framesPerDay = 144 * (nominalFramesPerSecond * 600 - 9 * droppedPerMinute)
    }

    /// True for drop-frame timecode (EDL `FCM: DROP FRAME`, FCPXML `tcFormat="DF"`).
    public var isDropFrame: Bool { droppedPerMinute > 0 }

    /// Why a timecode text cannot be read.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The label of frame `frame` (0-based, from the start of the count), `HH:MM:SS:FF` or `HH:MM:SS;FF`; a
    /// frame a day or more after the start wraps to the next day's label, as a timecode generator does.
    public func string(forFrame frame: Int64) -> String {
        let n = max(0, frame) % framesPerDay
        var label = n
        if isDropFrame {
            let perMinute = nominalFramesPerSecond * 60 - droppedPerMinute
            let perTenMinutes = nominalFramesPerSecond * 600 - 9 * droppedPerMinute
            let tens = n / perTenMinutes, rest = n % perTenMinutes
            let skippedInBlock = rest < droppedPerMinute
                ? 0 : droppedPerMinute * ((rest - droppedPerMinute) / perMinute)
            label = n + 9 * droppedPerMinute * tens + skippedInBlock
        }
        let fps = nominalFramesPerSecond
        let frames = label % fps, seconds = (label / fps) % 60, minutes = (label / fps / 60) % 60
        let hours = label / fps / 3600
        let separator = isDropFrame ? ";" : ":"
        return Self.two(hours) + ":" + Self.two(minutes) + ":" + Self.two(seconds) + separator + Self.two(frames)
    }

    /// The frame labelled `text` (`HH:MM:SS:FF`; `;` or `.` before the frames is accepted too), less than
    /// `framesPerDay`. A label that drop-frame skips (`00:01:00;00` at 29.97) or a field out of range (hours past
    /// 23 included) is an error that says why.
    public func frame(parsing text: String) throws(ParseError) -> Int64 {
        let fields = text.split(omittingEmptySubsequences: false, whereSeparator: { ":;.".contains($0) })
        guard fields.count == 4, fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
              let hours = Int64(fields[0]), let minutes = Int64(fields[1]), let seconds = Int64(fields[2]),
              let frames = Int64(fields[3]), hours >= 0, minutes >= 0, seconds >= 0, frames >= 0 else {
            throw ParseError(description: "\"\(text)\" is not a timecode; write HH:MM:SS:FF, e.g. 01:00:00:00")
        }
        guard hours < 24, minutes < 60, seconds < 60, frames < nominalFramesPerSecond else {
            throw ParseError(description: "\"\(text)\" is out of range: hours go to 23, minutes and seconds to 59 "
                             + "and frames to \(nominalFramesPerSecond - 1) at \(rate) fps")
        }
        if isDropFrame && seconds == 0 && minutes % 10 != 0 && frames < droppedPerMinute {
            throw ParseError(description: "\"\(text)\" does not exist in drop-frame timecode at \(rate) fps "
                             + "(frames 00–\(Self.two(droppedPerMinute - 1)) are skipped at the start of each "
                             + "minute not divisible by 10)")
        }
        let totalMinutes = hours * 60 + minutes
        let label = (totalMinutes * 60 + seconds) * nominalFramesPerSecond + frames
        return label - droppedPerMinute * (totalMinutes - totalMinutes / 10)
    }

    private static func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
