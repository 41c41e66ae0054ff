/// State that belongs to one serial context, reachable only from it: a box that may be captured by `@Sendable`
/// closures and handed between threads, while what it holds need not be `Sendable`, because every read and write
/// of the value checks `serialContext.isOnSerialContext` first (through `assertOnSerialContext`, which traps in the
/// program and records in a test context). The engine's state machines are synchronous structs and classes driven
/// from C threads through `schedule` and `perform`; this box is how such state crosses a `@Sendable` boundary without
/// each holder declaring an unchecked conformance of its own (swift-nio's `NIOLoopBoundBox`).
///
/// A reference type, so every closure that captures the box sees the same value. Making one needs no context: the
/// value is `sending`, so nothing outside the box can still reach it.
///
/// Unchecked Sendable: the one confinement wrapper; `storage` is touched only after the serial-context check.
public final class SerialContextBound<Value>: @unchecked Sendable {
    /// The context the value belongs to.
    public let serialContext: any SerialContext
    private var storage: Value

    /// Boxes `value` for `serialContext`. Callable from any thread: the value is handed over (`sending`), so the
    /// caller keeps no reference to it that could race the context.
    public init(_ value: sending Value, serialContext: any SerialContext) {
        self.serialContext = serialContext
        storage = value
    }

    /// The value; reading or changing it off the serial context is reported by `serialContext` (a trap in the
    /// program).
    public var value: Value {
        get {
            serialContext.assertOnSerialContext("SerialContextBound.value")
            return storage
        }
        _modify {
            serialContext.assertOnSerialContext("SerialContextBound.value")
            yield &storage
        }
    }

    /// Runs `body` with the value in place (one check for several changes), on the serial context only.
    public func withValue<Result>(_ function: StaticString = #function, file: StaticString = #fileID,
                                  line: UInt = #line, _ body: (inout Value) throws -> Result) rethrows -> Result {
        serialContext.assertOnSerialContext(function, file: file, line: line)
        return try body(&storage)
    }
}
