import Foundation

/// A sidecar's JSON put together from parts, byte for byte what `Sidecar.encoded()` gives for the same value: the
/// top-level fields encoded whole, and the scenes and pauses each encoded once, as entries.
///
/// The sidecar is rewritten at every scene boundary, and encoding JSON is its cost. Encoding every scene each time
/// made a clip's n-th scene change cost n scenes' encoding (4000 toggles took minutes). Here the entries that can no
/// longer change are encoded once (`settle`) and kept as text; a rewrite encodes only the top-level fields and the
/// entries still open, and copies the settled text. The caller says what is settled (`Recorder` knows which scenes
/// can still change).
///
/// It relies on the layout of `JSONEncoder`'s pretty printing: two spaces per level, an array's elements on their
/// own lines, and an empty array as `[`, an empty line, `]`. Strings never hold a raw newline (it is escaped), so
/// a line break always belongs to the layout. Tests compare both encodings on many sidecars.
public struct SidecarDocument: Sendable {
    /// The settled scenes' entries, each indented for its place in the document, joined with ",\n".
    private var settledScenes = Data()
    /// The settled pauses' entries, likewise.
    private var settledPauses = Data()
    /// How many scenes and pauses of the sidecar are settled (they come first, in order).
    public private(set) var settledSceneCount = 0
    public private(set) var settledPauseCount = 0

    public init() {}

    /// Encodes `scenes` and `pauses`, which come next in the sidecar and will never change, once and for all.
    public mutating func settle(scenes: [Sidecar.Scene], pauses: [Sidecar.Pause]) throws {
        for scene in scenes { Self.append(try Self.entry(scene), to: &settledScenes) }
        for pause in pauses { Self.append(try Self.entry(pause), to: &settledPauses) }
        settledSceneCount += scenes.count
        settledPauseCount += pauses.count
    }

    /// The document of `sidecar`, whose `scenes` and `pauses` are the entries after the settled ones (the settled
    /// ones are taken from here).
    public func encoded(_ sidecar: Sidecar) throws -> Data {
        var head = sidecar
        head.scenes = []
        head.pauses = []
        let top = try head.encoded()
        let lists = [
            (try Self.emptyArray("scenes", in: top), settledScenes, try sidecar.scenes.map { try Self.entry($0) }),
            (try Self.emptyArray("pauses", in: top), settledPauses, try sidecar.pauses.map { try Self.entry($0) }),
        ].sorted { $0.0.lowerBound < $1.0.lowerBound }
        // One pass, in document order: the settled text is copied once (it is most of a long clip's sidecar).
        var document = Data()
        document.reserveCapacity(top.count + settledScenes.count + settledPauses.count + 4096)
        var copied = top.startIndex
        for (place, settled, open) in lists where !settled.isEmpty || !open.isEmpty {
            let bracket = place.upperBound - Self.emptyTail.count
            document.append(top[copied..<bracket])
            document.append(UInt8(ascii: "\n"))
            document.append(settled)
            for entry in open {
                if document.last != UInt8(ascii: "\n") { document.append(contentsOf: Self.separator) }
                document.append(entry)
            }
            document.append(contentsOf: Array("\n  ]".utf8))
            copied = place.upperBound
        }
        document.append(top[copied...])
        return document
    }

    /// One array element as the document holds it: encoded alone, then indented two levels (the array sits in the
    /// top-level object).
    static func entry(_ value: some Encodable) throws -> Data {
        let text = [UInt8](try Sidecar.encoder().encode(value))
        let newline = UInt8(ascii: "\n")
        var indented = Self.indent
        indented.reserveCapacity(text.count + text.count / 4)
        for (index, byte) in text.enumerated() {
            indented.append(byte)
            // The empty line of an empty array stays empty.
            if byte == newline && index + 1 < text.count && text[index + 1] != newline {
                indented.append(contentsOf: Self.indent)
            }
        }
        return Data(indented)
    }

    private static let indent = Array("    ".utf8)

    private static let separator = Array(",\n".utf8)

    private static func append(_ entry: Data, to list: inout Data) {
        if !list.isEmpty { list.append(contentsOf: separator) }
        list.append(entry)
    }

    /// How `JSONEncoder` ends an empty array in the top-level object: an empty line, then the bracket.
    private static let emptyTail = Array("\n\n  ]".utf8)

    /// Where the top-level `key`'s empty array sits in `document` (from the line break before the key).
    private static func emptyArray(_ key: String, in document: Data) throws -> Range<Data.Index> {
        guard let range = document.range(of: Data("\n  \"\(key)\" : [".utf8) + emptyTail) else {
            throw SidecarDocumentError(description: "the sidecar's \(key) array is not where the layout puts it")
        }
        return range
    }
}

/// The sidecar's JSON did not have the layout `SidecarDocument` puts entries into (a change of the encoder's
/// pretty printing): a programming error, reported as the sidecar's write failure rather than a crash.
public struct SidecarDocumentError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
