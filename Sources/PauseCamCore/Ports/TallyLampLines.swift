/// Output lines that light tally lamps: a GPIO chip's lines requested as outputs (libgpiod in PauseCamSystem), or a
/// fake in tests. `TallyLamps` decides the levels.
public protocol TallyLampLines: AnyObject {
    /// Sets line `offset` high (lamp on) or low. Throws when the line cannot be driven.
    func drive(offset: Int, high: Bool) throws
}
