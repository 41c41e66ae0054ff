import Foundation

/// A clip's timecode policy, made as it starts.
extension ClipController {
    /// The `TimecodeClock` of a clip starting now (`wall` read with the capture clock): in a group, on the
    /// member's mapping and grid, so members agree on every instant; alone, on this pair of readings.
    func timecodeClock(group: GroupMember?, wall: Date) -> TimecodeClock {
        if let group {
            return TimecodeClock(start: rig.timecode, grid: group.grid, phaseAnchor: group.phaseAnchor,
                                 timeZone: timeZone, at: wall)
        }
        return TimecodeClock(start: rig.timecode, wall: wall, capture: serialContext.clock.now(), timeZone: timeZone)
    }
}
