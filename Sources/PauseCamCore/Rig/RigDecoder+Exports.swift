/// `output.exports:`: the formats written beside every movie (`[edl, fcpxml]`), or one format as a plain value.
/// Each unknown name is reported where it is written, with the nearest known name; a repeated one is kept once.
extension RigDecoder {
    mutating func exportFormats(_ node: YAMLNode, _ path: KeyPath) -> [ExportFormat] {
        let items: [YAMLNode]
        if let list = node.items {
            items = list
        } else if node.text != nil, !node.isNull {
            items = [node]
        } else {
            let names = ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")
            report("expected a list of export formats (\(names)), found \(node.kindDescription)",
                   at: node.mark, path: path)
            return []
        }
        var formats: [ExportFormat] = []
        for item in items {
            guard let format = choice(item, path, ExportFormat.self) else { continue }
            if !formats.contains(format) { formats.append(format) }
        }
        return formats
    }
}
