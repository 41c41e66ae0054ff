import Foundation

/// One ISO base media (QuickTime / MP4) box: its four-character type and where its bytes lie.
///
/// A box is a 32-bit size (or 1, then a 64-bit size after the type; or 0: "to the end") and a type, then its
/// body. Offsets are absolute within whatever was scanned (a file, or a parent box's `Data`).
public struct MovieBox: Sendable, Equatable {
    /// The type as its four ASCII characters (`moov`, `moof`, `mdat`…).
    public var type: String
    /// Where the box's header starts.
    public var offset: Int64
    /// 8, or 16 when the size is 64-bit.
    public var headerSize: Int64
    /// The whole box, header included.
    public var size: Int64

    public init(type: String, offset: Int64, headerSize: Int64, size: Int64) {
        self.type = type
        self.offset = offset
        self.headerSize = headerSize
        self.size = size
    }

    /// Where the body starts.
    public var bodyOffset: Int64 { offset + headerSize }
    /// The first byte after the box.
    public var end: Int64 { offset + size }

    /// Reads the header at the start of `bytes` (at least 16 bytes, or all that remain), placed at `offset`;
    /// `limit` is where the enclosing space ends (a size of 0 reaches it). `nil` when the header is malformed.
    public static func header(_ bytes: Data, at offset: Int64, limit: Int64) -> MovieBox? {
        var reader = BigEndianReader(bytes)
        guard let size32 = reader.uint32(), let type = reader.fourCC() else { return nil }
        var size = Int64(size32)
        var headerSize: Int64 = 8
        if size32 == 1 {
            guard let size64 = reader.uint64(), size64 <= UInt64(Int64.max) else { return nil }
            size = Int64(size64)
            headerSize = 16
        } else if size32 == 0 {
            size = limit - offset
        }
        guard size >= headerSize, offset + size <= limit else { return nil }
        return MovieBox(type: type, offset: offset, headerSize: headerSize, size: size)
    }

    /// The boxes that follow each other in `data` (a parent's body); `nil` when they do not tile it exactly.
    public static func children(of data: Data) -> [(box: MovieBox, body: Data)]? {
        var found: [(MovieBox, Data)] = []
        var position = 0
        while position < data.count {
            let start = data.startIndex + position
            guard let box = header(data[start..<min(data.endIndex, start + 16)], at: Int64(position),
                                   limit: Int64(data.count))
            else { return nil }
            let bodyStart = start + Int(box.headerSize)
            found.append((box, data[bodyStart..<(start + Int(box.size))]))
            position += Int(box.size)
        }
        return found
    }

    /// The bytes of a box of `type` holding `body` (a 64-bit size only when needed).
    public static func encode(_ type: String, _ body: Data) -> Data {
        var writer = BigEndianWriter()
        writer.box(type) { $0.append(body) }
        return writer.data
    }
}

/// Reads big-endian integers from the front of a byte buffer, as every box field is stored; each read returns
/// `nil` instead of trapping when the buffer is too short (a malformed file is a reason to fall back, not to crash).
public struct BigEndianReader {
    private let bytes: Data
    /// Bytes consumed so far.
    public private(set) var position = 0

    public init(_ bytes: Data) { self.bytes = bytes }

    /// Bytes not read yet.
    public var remaining: Int { bytes.count - position }

    public mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, remaining >= count else { return false }
        position += count
        return true
    }

    public mutating func uint8() -> UInt8? { integer(1).map { UInt8($0) } }
    public mutating func uint16() -> UInt16? { integer(2).map { UInt16($0) } }
    public mutating func uint32() -> UInt32? { integer(4).map { UInt32($0) } }
    public mutating func uint64() -> UInt64? { integer(8) }

    public mutating func fourCC() -> String? {
        guard remaining >= 4 else { return nil }
        let start = bytes.startIndex + position
        position += 4
        return String(decoding: bytes[start..<(start + 4)], as: Unicode.ASCII.self)
    }

    private mutating func integer(_ width: Int) -> UInt64? {
        guard remaining >= width else { return nil }
        var value: UInt64 = 0
        let start = bytes.startIndex + position
        for index in start..<(start + width) { value = value << 8 | UInt64(bytes[index]) }
        position += width
        return value
    }
}

/// Appends big-endian fields and whole boxes to a growing buffer.
public struct BigEndianWriter {
    public private(set) var data = Data()

    public init() {}

    public mutating func append(_ bytes: Data) { data.append(bytes) }
    public mutating func uint8(_ value: UInt8) { data.append(value) }
    public mutating func uint16(_ value: UInt16) { integer(UInt64(value), 2) }
    public mutating func uint32(_ value: UInt32) { integer(UInt64(value), 4) }
    public mutating func uint64(_ value: UInt64) { integer(value, 8) }
    public mutating func int32(_ value: Int32) { uint32(UInt32(bitPattern: value)) }
    public mutating func int64(_ value: Int64) { uint64(UInt64(bitPattern: value)) }
    public mutating func fourCC(_ type: String) { data.append(contentsOf: Array(type.utf8.prefix(4))) }

    /// Appends a box of `type` whose body `content` writes; its size is filled in afterwards (64-bit when over
    /// 4 GiB).
    public mutating func box(_ type: String, _ content: (inout BigEndianWriter) -> Void) {
        var body = BigEndianWriter()
        content(&body)
        if body.data.count + 8 <= Int(UInt32.max) {
            uint32(UInt32(body.data.count + 8))
            fourCC(type)
        } else {
            uint32(1)
            fourCC(type)
            uint64(UInt64(body.data.count + 16))
        }
        data.append(body.data)
    }

    private mutating func integer(_ value: UInt64, _ width: Int) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}
