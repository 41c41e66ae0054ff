/// The keys of one mapping of a rig file (the top level, `output`, a lens, a preset…), declared once as an enum:
/// the decoder reads a value only through a case (`f[.fps]`), and `RigDecoder.fields` accepts exactly the cases,
/// suggesting the nearest one for a misspelt key. So a key cannot be decoded in one place and unknown in another,
/// and adding a key is a case plus the lines that read it.
///
/// The cases' order is the order messages list the keys in (`expected one of: …`,
/// `expected a mapping (a: b: c: …)`).
protocol RigKey: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {}

extension RigKey {
    /// Every key's spelling in the file, in declaration order.
    static var names: [String] { allCases.map(\.rawValue) }
}
