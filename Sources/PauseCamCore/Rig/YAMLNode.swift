/// A position in a rig file, 1-based, as an editor shows it: the anchor of every `FILE:LINE:COLUMN:` message.
public struct SourceMark: Sendable, Equatable, Hashable, Comparable, CustomStringConvertible {
    /// The file name as given on the command line (kept as text; never opened by Core).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in characters.
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `FILE:LINE:COLUMN`.
    public var description: String { "\(file):\(line):\(column)" }

    public static func < (a: SourceMark, b: SourceMark) -> Bool {
        (a.file, a.line, a.column) < (b.file, b.line, b.column)
    }
}

/// A plain YAML node tree that remembers where each node was written. PauseCamSystem builds it from libyaml's
/// events; `RigDecoder` turns it into a `Rig` in pure Swift, so decoding and validation are tested without libyaml.
///
/// Scalars stay untyped text (YAML's own typing is decided by the decoder, per key), and mappings stay an ordered
/// list of pairs rather than a dictionary, so duplicate keys survive to be reported.
public struct YAMLNode: Sendable, Equatable {
    /// How a scalar was written: only a plain scalar can be null (`~`, `null`, or nothing at all).
    public enum ScalarStyle: Sendable, Equatable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    /// One `key: value` entry of a mapping, in file order.
    public struct Pair: Sendable, Equatable {
        public var key: YAMLNode
        public var value: YAMLNode
        public init(key: YAMLNode, value: YAMLNode) {
            self.key = key
            self.value = value
        }
    }

    /// What the node holds: text, key/value pairs in file order, or items in file order.
    public enum Content: Sendable, Equatable {
        case scalar(String, ScalarStyle)
        case mapping([Pair])
        case sequence([YAMLNode])
    }

    /// The node's value.
    public var content: Content
    /// Where the node starts.
    public var mark: SourceMark

    public init(_ content: Content, at mark: SourceMark) {
        self.content = content
        self.mark = mark
    }

    /// A scalar node.
    public static func scalar(_ text: String, style: ScalarStyle = .plain, at mark: SourceMark) -> YAMLNode {
        YAMLNode(.scalar(text, style), at: mark)
    }

    /// The scalar's text, or `nil` for a mapping or a sequence.
    public var text: String? {
        if case .scalar(let s, _) = content { return s }
        return nil
    }

    /// True for YAML's null: a plain `~`, `null`, `Null`, `NULL`, or an empty plain scalar (`key:` with no value).
    public var isNull: Bool {
        if case .scalar(let s, .plain) = content { return ["", "~", "null", "Null", "NULL"].contains(s) }
        return false
    }

    /// The mapping's pairs, or `nil`.
    public var pairs: [Pair]? {
        if case .mapping(let p) = content { return p }
        return nil
    }

    /// The sequence's items, or `nil`.
    public var items: [YAMLNode]? {
        if case .sequence(let i) = content { return i }
        return nil
    }

    /// "a mapping", "a sequence", "empty" or the quoted text: what an error message says was found.
    public var kindDescription: String {
        switch content {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let s, _): return isNull ? "nothing" : "\"\(s)\""
        }
    }
}
