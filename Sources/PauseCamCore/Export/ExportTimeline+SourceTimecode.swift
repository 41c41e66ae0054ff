/// Where a sidecar's movie's own timecode starts, for the exports' source timecode.
extension ExportTimeline {
    /// `timecode.startFrame` when it is a label of `rate`'s timecode (drop-frame as it says, within one day); 0
    /// otherwise: a sidecar is a file anyone can edit, and its number must not reach the arithmetic unchecked.
    static func sourceStartFrame(_ timecode: Sidecar.Timecode?, rate: FrameRate) -> Int64 {
        guard let timecode else { return 0 }
        let labels = Timecode(rate: rate)
        guard timecode.dropFrame == labels.isDropFrame, (0..<labels.framesPerDay).contains(timecode.startFrame)
        else { return 0 }
        return timecode.startFrame
    }
}
