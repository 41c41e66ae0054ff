import CYAML
import PauseCamCore

/// Reads YAML text with libyaml's event parser and builds Core's `YAMLNode` tree, with every node's 1-based line
/// and column. Anything libyaml rejects becomes a `RigError` carrying libyaml's problem text and position.
///
/// A rig file is one plain document: a second document (`---`) and aliases (`*name`) are errors, so the tree is
/// always a tree. Keys are not de-duplicated here (libyaml does not either); `RigDecoder` reports duplicates.
public enum YAMLParser {
    /// Deeper nesting than any rig needs is refused, so a hostile file cannot exhaust the stack later on.
    static let maximumDepth = 64

    /// The document's root node (a null scalar for an empty file). `file` is only used in marks and messages.
    public static func parse(_ text: String, file: String) throws(RigError) -> YAMLNode {
        try parse(bytes: Array(text.utf8), file: file)
    }

    /// The same from raw bytes: text that is not UTF-8 is reported by libyaml with the position of the bad byte.
    public static func parse(bytes input: [UInt8], file: String) throws(RigError) -> YAMLNode {
        // libyaml reads straight from this buffer: it must stay alive (and unmoved) for the whole parse, which
        // `withUnsafeBufferPointer` guarantees. A zero-length buffer would have no base address, so keep one byte.
        var bytes = input
        let length = bytes.count
        bytes.append(0)
        let result: Result<YAMLNode, RigError> = bytes.withUnsafeBufferPointer { buffer in
            var builder = TreeBuilder(file: file)
            return builder.run(buffer.baseAddress!, length: length)
        }
        return try result.get()
    }

    /// Drives the libyaml parser and assembles nodes on a stack.
    private struct TreeBuilder {
        let file: String
        private var stack: [Frame] = []
        private var root: YAMLNode?
        private var documents = 0

        init(file: String) { self.file = file }

        private enum Frame {
            case mapping(SourceMark, [YAMLNode.Pair], pendingKey: YAMLNode?)
            case sequence(SourceMark, [YAMLNode])
        }

        mutating func run(_ input: UnsafePointer<UInt8>, length: Int) -> Result<YAMLNode, RigError> {
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else {
                return .failure(RigError("libyaml could not allocate a parser (yaml_parser_initialize)",
                                         at: SourceMark(file: file, line: 0, column: 0)))
            }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, input, length)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    return .failure(syntaxError(parser, input: input, length: length))
                }
                // The event owns copies of its strings (scalar value, anchor, tag): read them, then free it.
                let outcome = handle(event)
                let type = event.type
                yaml_event_delete(&event)
                if let error = outcome { return .failure(error) }
                if type == YAML_STREAM_END_EVENT { break }
            }
            return .success(root ?? .scalar("", at: SourceMark(file: file, line: 1, column: 1)))
        }

        private func mark(_ m: yaml_mark_t) -> SourceMark {
            SourceMark(file: file, line: Int(m.line) + 1, column: Int(m.column) + 1)
        }

        /// Handles one event; returns an error to stop at.
        private mutating func handle(_ event: yaml_event_t) -> RigError? {
            let at = mark(event.start_mark)
            switch event.type {
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    return RigError("a rig file holds one YAML document; a second one starts here", at: at)
                }
            case YAML_ALIAS_EVENT:
                return RigError("aliases (*name) are not supported in rig files; write the value out", at: at)
            case YAML_SCALAR_EVENT:
                let s = event.data.scalar
                let text = String(decoding: UnsafeBufferPointer(start: s.value, count: Int(s.length)), as: UTF8.self)
                let style: YAMLNode.ScalarStyle
                switch s.style {
                case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
                case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
                case YAML_LITERAL_SCALAR_STYLE: style = .literal
                case YAML_FOLDED_SCALAR_STYLE: style = .folded
                default: style = .plain
                }
                add(.scalar(text, style: style, at: at))
            case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT:
                if stack.count >= YAMLParser.maximumDepth {
                    return RigError("nested more than \(YAMLParser.maximumDepth) levels deep", at: at)
                }
                stack.append(event.type == YAML_MAPPING_START_EVENT ? .mapping(at, [], pendingKey: nil)
                                                                      : .sequence(at, []))
            case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                switch stack.popLast() {
                case .mapping(let m, let pairs, _)?: add(YAMLNode(.mapping(pairs), at: m))
                case .sequence(let m, let items)?: add(YAMLNode(.sequence(items), at: m))
                case nil: preconditionFailure("libyaml ended a collection that was never started")
                }
            default:
                break
            }
            return nil
        }

        /// Puts a finished node into its parent (as a key, a value or an item), or makes it the root.
        private mutating func add(_ node: YAMLNode) {
            guard let top = stack.popLast() else {
                root = node
                return
            }
            switch top {
            case .mapping(let m, var pairs, let key?):
                pairs.append(YAMLNode.Pair(key: key, value: node))
                stack.append(.mapping(m, pairs, pendingKey: nil))
            case .mapping(let m, let pairs, nil):
                stack.append(.mapping(m, pairs, pendingKey: node))
            case .sequence(let m, var items):
                items.append(node)
                stack.append(.sequence(m, items))
            }
        }

        /// libyaml's problem, context and position as a rig error. Reader errors (bad UTF-8) have a byte offset
        /// instead of a mark; it is turned into a line and column here.
        private func syntaxError(_ parser: yaml_parser_t, input: UnsafePointer<UInt8>, length: Int) -> RigError {
            let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
            var message = "YAML syntax error: \(problem)"
            var at = mark(parser.problem_mark)
            if parser.error == YAML_READER_ERROR {
                at = position(ofByte: min(Int(parser.problem_offset), length), in: input)
                message = "YAML syntax error: \(problem) (the file must be UTF-8 text)"
            } else if let context = parser.context.map({ String(cString: $0) }) {
                let c = mark(parser.context_mark)
                message += " (\(context) at line \(c.line), column \(c.column))"
            }
            return RigError(message, at: at)
        }

        private func position(ofByte offset: Int, in input: UnsafePointer<UInt8>) -> SourceMark {
            var line = 1, column = 1
            for i in 0..<offset {
                if input[i] == UInt8(ascii: "\n") { line += 1; column = 1 } else if input[i] & 0xC0 != 0x80 { column += 1 }
            }
            return SourceMark(file: file, line: line, column: column)
        }
    }
}
