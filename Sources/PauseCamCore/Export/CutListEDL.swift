import Foundation

/// A CMX 3600 cut list of a `MulticamTimeline` whose angles share its timeline (a clip's lens ISOs): one event per
/// cut, each a straight cut (`C`) to the reel of the angle the program shows, so an editor that imports the EDL
/// rebuilds the live cut from the ISO movies and can change any switch.
///
/// Each angle is one reel, named from its angle's name within CMX's 8 characters (`reelNames`), and every event is
/// followed by the comment `* FROM CLIP NAME: ROLE.mov` that Resolve, Premiere and Avid read to find the reel's
/// movie. An event's source in/out are the movie's own timecode (its `tmcd` track's, `Angle.sourceStartFrame`, plus
/// the movie's frames), so an editor finds each event's frames by timecode; the record side is the timeline, from
/// `startFrame`. The channels are `AA/V` when the clip has sound (every ISO carries the program's, so cutting
/// it with the picture keeps it continuous), `V` without. Timecodes are at the timeline's rate, drop-frame at
/// 29.97 and 59.94 (`FCM: DROP FRAME`).
public enum CutListEDL {
    /// The EDL text (CRLF line ends, as editors write them). `startFrame` is the record timeline's start timecode
    /// as a frame count.
    public static func render(_ timeline: MulticamTimeline, startFrame: Int64 = 0) -> String {
        let timecode = Timecode(rate: timeline.rate)
        let reels = reelNames(timeline.angles.map(\.name))
        let channels = timeline.audioAngle == nil ? "V" : "AA/V"
        var lines = ["TITLE: \(ResolveMarkerEDL.oneLine(timeline.name))",
                     "FCM: \(timecode.isDropFrame ? "DROP FRAME" : "NON-DROP FRAME")", ""]
        for (number, (cut, endFrame)) in timeline.cutRanges.enumerated() {
            let angle = timeline.angles[cut.angle]
            let sourceStart = sourceStartFrame(angle, timeline: timeline)
            let source = timecode.string(forFrame: sourceStart + cut.startFrame - angle.offsetFrames) + " "
                + timecode.string(forFrame: sourceStart + endFrame - angle.offsetFrames)
            let record = timecode.string(forFrame: startFrame + cut.startFrame) + " "
                + timecode.string(forFrame: startFrame + endFrame)
            lines.append(eventNumber(number + 1) + "  " + padded(reels[cut.angle], 9) + padded(channels, 6)
                         + padded("C", 9) + source + " " + record)
            lines.append("* FROM CLIP NAME: \(ResolveMarkerEDL.oneLine((angle.movie as NSString).lastPathComponent))")
            lines.append("")
        }
        return lines.joined(separator: "\r\n")
    }

    /// Reel names for angles called `names`, in order: each name's ASCII letters and digits upper-cased (anything
    /// else becomes `_`), cut to CMX's 8 characters. A name shared by two angles, an empty one (`REEL`) and `BL` and
    /// `AX` (black and an auxiliary source in CMX) get a number at the end instead (`CLOSEUP1`, `CLOSEUP2`), one no
    /// other reel has.
    public static func reelNames(_ names: [String]) -> [String] {
        let limit = 8
        let reserved: Set<String> = ["", "BL", "AX"]
        let bases = names.map { name in
            String(String(name.uppercased().unicodeScalars.map { scalar -> Character in
                scalar.isASCII && CharacterSet.alphanumerics.contains(scalar) ? Character(scalar) : "_"
            }).prefix(limit))
        }
        var counts: [String: Int] = [:]
        for base in bases { counts[base, default: 0] += 1 }
        let keepsItsName = { (base: String) in counts[base] == 1 && !reserved.contains(base) }
        var taken = Set(bases.filter(keepsItsName))
        return bases.map { base in
            if keepsItsName(base) { return base }
            let stem = base.isEmpty ? "REEL" : base
            var number = 1
            while true {
                let suffix = String(number)
                let candidate = String(stem.prefix(limit - suffix.count)) + suffix
                if taken.insert(candidate).inserted { return candidate }
                number += 1
            }
        }
    }

    /// Where `angle`'s source timecode starts at the timeline's rate, the one rate of an EDL: its own label, or for
    /// a movie of another rate (a lens ISO that keeps its lens's), the timeline's label in effect at the same
    /// instant (rounded down, as the labels are: 60 fps label 2n + 1 is 30 fps label n).
    static func sourceStartFrame(_ angle: MulticamTimeline.Angle, timeline: MulticamTimeline) -> Int64 {
        guard let own = angle.rate, own != timeline.rate, own.numerator > 0, timeline.rate.denominator > 0 else {
            return angle.sourceStartFrame
        }
        let numerator = Int128(angle.sourceStartFrame) * Int128(own.denominator) * Int128(timeline.rate.numerator)
        let denominator = Int128(own.numerator) * Int128(timeline.rate.denominator)
        let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
        return Int64(clamping: remainder < 0 ? quotient - 1 : quotient)
    }

    /// Event numbers are three digits up to 999, then as many as needed.
    private static func eventNumber(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    /// `text` followed by spaces up to `width` characters, and at least one.
    private static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}
