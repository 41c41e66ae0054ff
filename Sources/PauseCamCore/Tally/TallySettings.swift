/// A rig's `tally:`: where each lens's tally goes besides `status` and the monitor page — TSL UMD 5.0 over UDP, and
/// GPIO lines for lamps. A group member also publishes every lens's tally on MQTT (`GroupTopics.tally`), without a
/// setting.
public struct TallySettings: Sendable, Equatable {
    /// `tally.tsl`: one TSL 5.0 display index per lens, sent to one UDP destination.
    public struct TSL: Sendable, Equatable {
        /// `send:` — the receiver (TallyArbiter's "TSL 5.0 UDP" source, a tally box, a multiviewer); loopback port
        /// 8900 unless the rig names another.
        public var destination: MonitorListenAddress
        /// `screen:` — the TSL screen index, 0 unless written.
        public var screen: UInt16
        /// `indices:` — each lens's display index, in the file's order; a lens not listed sends nothing.
        public var indices: [Index]

        public static let defaultDestination = MonitorListenAddress(host: "127.0.0.1", port: 8900)
        /// Display indices a rig may give: 0xFFFF is the protocol's "every display".
        public static let indexRange = 0...65534

        public init(destination: MonitorListenAddress = TSL.defaultDestination, screen: UInt16 = 0,
                    indices: [Index]) {
            self.destination = destination
            self.screen = screen
            self.indices = indices
        }

        /// One lens's display index.
        public struct Index: Sendable, Equatable {
            public var lens: String
            public var index: UInt16
            public init(lens: String, index: UInt16) {
                self.lens = lens
                self.index = index
            }
        }

        /// The packets of `board`, one per lens with an index, labelled with the lens's name.
        public func packets(for board: TallyBoard) -> [TSLUMDPacket] {
            indices.map { TSLUMDPacket(screen: screen, index: $0.index, tally: board.state(of: $0.lens), text: $0.lens) }
        }
    }

    /// `tally.gpio`: one output line of a GPIO chip per lens, high while its lens is on program.
    public struct GPIO: Sendable, Equatable {
        /// `chip:` — the chip's name (`gpiochip0`) or its device path (`/dev/gpiochip0`).
        public var chip: String
        /// `lines:` — each lens's line offset on the chip, in the file's order.
        public var lines: [Line]

        /// Line offsets a rig may give: far more than any GPIO chip has (a Raspberry Pi's has 54).
        public static let offsetRange = 0...1023

        public init(chip: String, lines: [Line]) {
            self.chip = chip
            self.lines = lines
        }

        /// One lens's line.
        public struct Line: Sendable, Equatable {
            public var lens: String
            public var offset: Int
            public init(lens: String, offset: Int) {
                self.lens = lens
                self.offset = offset
            }
        }
    }

    public var tsl: TSL?
    public var gpio: GPIO?

    /// How often every lens's tally is sent again although nothing changed, so a receiver started (or a datagram
    /// lost) after the last change catches up within this time.
    public static let refreshPeriod = MediaTime.seconds(1)

    public init(tsl: TSL? = nil, gpio: GPIO? = nil) {
        self.tsl = tsl
        self.gpio = gpio
    }
}
