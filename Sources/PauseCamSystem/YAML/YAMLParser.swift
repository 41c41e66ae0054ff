import CYAML
import PauseCamCore

/// Reads YAML text with libyaml's event parser and builds Core's `YAMLNode` tree, with every node's 1-based line
/// and column. Anything libyaml rejects becomes a `RigError` carrying libyaml's problem text and position.
///
/// A rig file is one plain document: a second document (`---`) and aliases (`*name`) are errors, so the tree is
/// always a tree. Keys are not de-duplicated here (libyaml does not either); `RigDecoder` reports duplicates.
///
/// The cost is linear in the input: each node is appended in place to its parent's frame, and the input is capped
/// (`maximumBytes`, `maximumNodes`), so a file that is not really a rig fails at once with one error instead of
/// loading for minutes.
public enum YAMLParser {
    /// Deeper nesting than any rig needs is refused, so a hostile file cannot exhaust the stack later on.
    static let maximumDepth = 64
    /// The largest rig file accepted: 4 MiB. A real rig is a few kilobytes; even a script of 200,000 steps fits
    /// (3.3 MB). Anything larger is refused before it is read, with the size and the limit in the message.
    public static let maximumBytes = 4 * 1024 * 1024
    /// The most nodes (scalars, mappings, lists) a rig file may hold: far more than any rig needs (a 4 MiB file of
    /// block-style steps has under a million), but it stops flow-style input such as `[a,a,a,…]` from building
    /// millions of nodes.
    public static let maximumNodes = 1_000_000

    /// The document's root node (a null scalar for an empty file). `file` is only used in marks and messages.
    public static func parse(_ text: String, file: String) throws(RigError) -> YAMLNode {
        try parse(bytes: Array(text.utf8), file: file)
    }

    /// The same from raw bytes: text that is not UTF-8 is reported by libyaml with the position of the bad byte.
    public static func parse(bytes input: [UInt8], file: String) throws(RigError) -> YAMLNode {
        if input.count > maximumBytes {
            throw tooLarge(file: file, size: input.count)
        }
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

    /// The one error for input over `maximumBytes`, with the size, the limit and what to do; shared with
    /// `RigLoader.read`, which refuses such a file before reading it.
    static func tooLarge(file: String, size: Int) -> RigError {
        RigError("the rig file is \(size) bytes, more than the limit of \(maximumBytes) bytes (4 MiB) for a rig "
                 + "file; check that this is the rig you meant, or split its scripts over several rig files",
                 at: SourceMark(file: file, line: 0, column: 0))
    }

    /// Drives the libyaml parser and assembles nodes on a stack.
    private struct TreeBuilder {
        let file: String
        private var stack: [Frame] = []
        private var root: YAMLNode?
        private var documents = 0
        private var nodes = 0

        init(file: String) { self.file = file }

        /// A collection being built. It is a struct mutated in place through `stack[last]`, so appending a child
        /// costs O(1): popping the frame, appending to a copy and pushing it back copied the whole array each time
        /// (the loader was quadratic: a 200,000-step script took minutes).
        private struct Frame {
            enum Kind { case mapping, sequence }
            let kind: Kind
            let mark: SourceMark
            var pairs: [YAMLNode.Pair] = []
            var items: [YAMLNode] = []
            var pendingKey: YAMLNode?

            init(_ kind: Kind, at mark: SourceMark) {
                self.kind = kind
                self.mark = mark
            }
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
                if let error = countNode(at: at) { return error }
                add(.scalar(text, style: style, at: at))
            case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT:
                if stack.count >= YAMLParser.maximumDepth {
                    return RigError("nested more than \(YAMLParser.maximumDepth) levels deep", at: at)
                }
                if let error = countNode(at: at) { return error }
                stack.append(Frame(event.type == YAML_MAPPING_START_EVENT ? .mapping : .sequence, at: at))
            case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                guard let frame = stack.popLast() else {
                    preconditionFailure("libyaml ended a collection that was never started")
                }
                switch frame.kind {
                case .mapping: add(YAMLNode(.mapping(frame.pairs), at: frame.mark))
                case .sequence: add(YAMLNode(.sequence(frame.items), at: frame.mark))
                }
            default:
                break
            }
            return nil
        }

        /// Counts one more node; past `maximumNodes` the parse stops with one error at that node.
        private mutating func countNode(at mark: SourceMark) -> RigError? {
            nodes += 1
            guard nodes > YAMLParser.maximumNodes else { return nil }
            return RigError("more than \(YAMLParser.maximumNodes) YAML nodes (values, keys, lists); no rig needs "
                            + "that many: check that this is the rig you meant, or split its scripts over several "
                            + "rig files", at: mark)
        }

        /// Puts a finished node into its parent (as a key, a value or an item), or makes it the root. The parent's
        /// frame is mutated in place (`stack[last]`), never copied.
        private mutating func add(_ node: YAMLNode) {
            let last = stack.count - 1
            guard last >= 0 else {
                root = node
                return
            }
            switch stack[last].kind {
            case .sequence:
                stack[last].items.append(node)
            case .mapping:
                if let key = stack[last].pendingKey {
                    stack[last].pairs.append(YAMLNode.Pair(key: key, value: node))
                    stack[last].pendingKey = nil
                } else {
                    stack[last].pendingKey = node
                }
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
            } else if let tab = tabInIndentation(line: Int(parser.problem_mark.line),
                                                 column: Int(parser.problem_mark.column), in: input, length: length) {
                // libyaml's own words ("found character that cannot start any token", "found a tab character that
                // violates indentation") do not say what to change; a tab in the indentation is the usual cause.
                return RigError("tabs are not allowed for indentation; use spaces", at: tab)
            } else if let context = parser.context.map({ String(cString: $0) }) {
                let c = mark(parser.context_mark)
                message += " (\(context) at line \(c.line), column \(c.column))"
                let lines = max(0, min(c.line, at.line) - 2)...max(c.line, at.line) - 1
                if let colour = unquotedColour(onLines: lines, in: input, length: length) {
                    // `{color: #3050e0}`: YAML reads `#3050e0}` as a comment, so the flow mapping never closes.
                    message += "; \(colour) is read as a comment: write \"\(colour)\" " + RigValueParser.commentHint
                }
            }
            return RigError(message, at: at)
        }

        /// The first unquoted `#rrggbb` (or `#rgb`) written as a value after `: ` on these lines (0-based), if any.
        private func unquotedColour(onLines lines: ClosedRange<Int>, in input: UnsafePointer<UInt8>,
                                    length: Int) -> String? {
            var line = 0, index = 0
            while index < length, line < lines.lowerBound {
                if input[index] == UInt8(ascii: "\n") { line += 1 }
                index += 1
            }
            let hex: (UInt8) -> Bool = { ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) }
            while index + 3 < length, line <= lines.upperBound {
                if input[index] == UInt8(ascii: "\n") { line += 1 }
                if input[index] == UInt8(ascii: ":"), input[index + 1] == UInt8(ascii: " "),
                   input[index + 2] == UInt8(ascii: "#") {
                    var end = index + 3
                    while end < length, hex(input[end]) { end += 1 }
                    if end - index - 3 == 6 || end - index - 3 == 3 {
                        return String(decoding: UnsafeBufferPointer(start: input + index + 2, count: end - index - 2),
                                      as: UTF8.self)
                    }
                }
                index += 1
            }
            return nil
        }

        /// The first tab in the indentation of `line` (0-based, as libyaml counts), when libyaml's error lies
        /// within that indentation; `nil` otherwise.
        private func tabInIndentation(line: Int, column: Int, in input: UnsafePointer<UInt8>,
                                      length: Int) -> SourceMark? {
            var start = 0, seen = 0
            while seen < line, start < length {
                if input[start] == UInt8(ascii: "\n") { seen += 1 }
                start += 1
            }
            guard seen == line else { return nil }
            var end = start
            var firstTab: Int?
            while end < length, input[end] == UInt8(ascii: " ") || input[end] == UInt8(ascii: "\t") {
                if firstTab == nil, input[end] == UInt8(ascii: "\t") { firstTab = end }
                end += 1
            }
            guard let tab = firstTab, column <= end - start else { return nil }
            return SourceMark(file: file, line: line + 1, column: tab - start + 1)
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
