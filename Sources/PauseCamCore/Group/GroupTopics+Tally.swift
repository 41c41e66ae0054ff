/// The tally topics of a group: `pausecam/<group>/tally/<host>/<lens>`, one per lens of each member, retained, its
/// payload the plain word `program`, `preview` or `off` (`TallyState`), so a tally lamp on a microcontroller, Node-RED
/// or Home Assistant subscribes to one lens of one host without parsing JSON.
extension GroupTopics {
    /// Where `host` keeps `lens`'s tally; `nil` when the lens's name cannot be a topic level.
    public func tally(of host: String, lens: String) -> String? {
        guard Self.problem(withLevel: lens) == nil else { return nil }
        return "\(Self.root)/\(group)/tally/\(host)/\(lens)"
    }

    /// The subscription that receives every lens's tally of every member.
    public var everyTally: String { "\(Self.root)/\(group)/tally/#" }
}
