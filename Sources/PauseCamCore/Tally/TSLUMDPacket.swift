/// One TSL UMD protocol 5.0 packet carrying one display message: the tally and label of one index, as tally boxes,
/// multiviewers, vision mixers and TallyArbiter's "TSL 5.0 UDP" source read it.
///
/// The layout, every 16-bit value little-endian (TSL Products, "TSL UMD Protocol", version 5.0):
///
/// ```
/// PBC     u16  bytes that follow this field
/// VER     u8   minor version: 0 for 5.00
/// FLAGS   u8   bit 0: text is UTF-16LE (else ASCII); bit 1: screen control follows (never set here)
/// SCREEN  u16  screen index (0xFFFF: every screen)
/// INDEX   u16  display index (0xFFFF: every display)
/// CONTROL u16  bits 0–1 right-hand tally, 2–3 text tally, 4–5 left-hand tally (0 off, 1 red, 2 green,
///              3 amber), 6–7 brightness (0–3), 8–14 reserved, 15 clear: display text follows
/// LENGTH  u16  bytes of text
/// TEXT         the label
/// ```
///
/// Over UDP a packet is sent as it is (the DLE/STX wrapper is for byte streams only), at most 2048 bytes. One display
/// message per packet: TallyArbiter, and other readers, look only at a packet's first.
public struct TSLUMDPacket: Sendable, Equatable {
    /// The colour of one of a display's three tally lamps (2 bits).
    public enum Lamp: UInt16, Sendable, Equatable {
        case off = 0
        case red = 1
        case green = 2
        case amber = 3
    }

    public var screen: UInt16
    public var index: UInt16
    /// The same colour on the left-hand, text and right-hand lamps, so a reader that watches any one of them sees it.
    public var lamp: Lamp
    /// 0 (dark) to 3 (full).
    public var brightness: UInt8
    /// The display's label (the lens name).
    public var text: String

    /// The largest packet the protocol allows over UDP.
    public static let maximumBytes = 2048
    /// The bytes before the text: PBC, VER, FLAGS, SCREEN, INDEX, CONTROL, LENGTH.
    public static let headerBytes = 12
    /// The longest label sent, in bytes: a UMD shows a few words; longer text is cut at a character boundary.
    public static let maximumTextBytes = 64

    public init(screen: UInt16 = 0, index: UInt16, lamp: Lamp, brightness: UInt8 = 3, text: String) {
        self.screen = screen
        self.index = index
        self.lamp = lamp
        self.brightness = min(brightness, 3)
        self.text = text
    }

    /// The packet for one lens's tally: program red, preview green, off dark (the label stays lit).
    public init(screen: UInt16 = 0, index: UInt16, tally: TallyState, text: String) {
        let lamp: Lamp
        switch tally {
        case .program: lamp = .red
        case .preview: lamp = .green
        case .off: lamp = .off
        }
        self.init(screen: screen, index: index, lamp: lamp, text: text)
    }

    /// The CONTROL field: the lamp in all three tally positions, the brightness, bit 15 clear (display data).
    public var control: UInt16 {
        lamp.rawValue | lamp.rawValue << 2 | lamp.rawValue << 4 | UInt16(min(brightness, 3)) << 6
    }

    /// The packet's bytes. ASCII text goes as it is; text with any other character as UTF-16LE with FLAGS bit 0 set.
    public var bytes: [UInt8] {
        let ascii = text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
        var label: [UInt8] = []
        for character in text {
            var piece: [UInt8] = []
            if ascii {
                piece = Array(String(character).utf8)
            } else {
                for unit in String(character).utf16 { piece += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            }
            guard label.count + piece.count <= Self.maximumTextBytes else { break }
            label += piece
        }
        var packet: [UInt8] = []
        packet.reserveCapacity(Self.headerBytes + label.count)
        func append(_ value: UInt16) { packet += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        append(UInt16(Self.headerBytes - 2 + label.count))
        packet.append(0)
        packet.append(ascii ? 0 : 1)
        append(screen)
        append(index)
        append(control)
        append(UInt16(label.count))
        packet += label
        return packet
    }
}
