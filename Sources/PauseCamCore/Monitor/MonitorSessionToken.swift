/// The secret a browser shows to use a monitor that listens beyond this machine: 128 random bits per session,
/// written as 32 lowercase hex digits. The composition root draws the bits (the system's random source) and
/// prints the URL that carries it; the token never appears in logs or in the status.
public struct MonitorSessionToken: Sendable {
    /// The token's text (32 hex digits).
    public let text: String

    /// A token from 16 random bytes.
    public init(bytes: [UInt8]) {
        precondition(bytes.count == 16, "a session token is 128 bits")
        text = bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
    }

    /// A token from a random number generator (`SystemRandomNumberGenerator` in production).
    public init<Generator: RandomNumberGenerator>(using generator: inout Generator) {
        var bytes: [UInt8] = []
        for _ in 0..<2 {
            let word = generator.next() as UInt64
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        self.init(bytes: bytes)
    }

    /// Whether `candidate` is the token, comparing every byte whatever differs first, so the time taken does not
    /// tell an attacker how much of a guess was right.
    public func matches(_ candidate: String) -> Bool {
        let expected = Array(text.utf8)
        let given = Array(candidate.utf8)
        var difference = UInt8(expected.count == given.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }
}
