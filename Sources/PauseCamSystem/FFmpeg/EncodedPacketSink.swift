/// A stage that takes encoded packets: the `.partial`'s muxer (`PartialMuxerStage`) today; a monitor's stream, an
/// ISO writer or a second muxer would be another. The encoder stages call `write` from their own threads (video
/// and audio at once), so an implementation serializes itself; it may keep the packet (it is immutable) and
/// throws to stop the stream that sent it.
protocol EncodedPacketSink: AnyObject, Sendable {
    func write(_ packet: EncodedPacket) throws
}
