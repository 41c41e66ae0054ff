extension Rig {
    /// The `audio:` section's sound options, beyond which device: how seams are smoothed, and what the virtual
    /// microphone plays (a test tone, a drifting sample clock, silence), so every sound feature can be tested
    /// without hardware.
    public struct AudioOptions: Sendable, Equatable {
        /// `declick:` (default on): a few milliseconds of raised-cosine fade out and in at every seam, so cutting
        /// room tone or music at a pause is not heard as a click. Off keeps the exact samples.
        public var declick: Bool
        /// `tone: HZ` (virtual microphone only): a continuous sine at −12 dBFS instead of the sync beeps, the
        /// signal in which a click or a dropped sample is easiest to find.
        public var toneFrequency: Int?
        /// `drift_ppm: N` (virtual microphone only): its sample clock runs N parts per million fast (or slow when
        /// negative) against the session clock, as a real USB microphone's crystal does.
        public var driftPPM: Int
        /// `level: G` (virtual microphone only), 0…1: a gain on everything it plays; 0 is a silent input.
        public var level: Double
        /// `gain: +6dB` (any microphone): a digital gain in dB applied before the meter and the encoder
        /// (`AudioGain`); samples it pushes past full scale are clipped and counted. 0 leaves the sound untouched.
        public var gainDecibels: Double

        public init(declick: Bool = true, toneFrequency: Int? = nil, driftPPM: Int = 0, level: Double = 1,
                    gainDecibels: Double = 0) {
            self.declick = declick
            self.toneFrequency = toneFrequency
            self.driftPPM = driftPPM
            self.level = level
            self.gainDecibels = gainDecibels
        }

        /// The range `tone:` may take: audible, and below half the 48 kHz sample rate.
        public static let toneRange = 20...20_000
        /// The range `drift_ppm:` may take: far beyond any real crystal (tens of ppm), short of a wrong rate.
        public static let driftRange = -20_000...20_000
        /// The range `gain:` may take, in dB: from a hot line input to a quiet lavalier; beyond it the sound is
        /// either lost in rounding or nothing but clipping.
        public static let gainRange = -40.0...40.0
    }
}
