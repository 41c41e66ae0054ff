/// Where a long `wait` stands, handed to `ScriptRunner.progress` while time passes, so a front end can show a
/// progress line (the runner never prints: the composition root decides whether and where to draw it).
public struct WaitProgress: Sendable, Equatable {
    /// The session clock now (simulated or monotonic): what "speed" is measured on.
    public var sessionTime: MediaTime
    /// The movie's duration so far (the live timer; frozen while paused).
    public var movieTime: MediaTime
    /// Scripted time still to pass: the rest of this wait plus the script's later waits (a shell's `wait`: its rest).
    public var scriptedTimeLeft: MediaTime

    public init(sessionTime: MediaTime, movieTime: MediaTime, scriptedTimeLeft: MediaTime) {
        self.sessionTime = sessionTime
        self.movieTime = movieTime
        self.scriptedTimeLeft = scriptedTimeLeft
    }
}
