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

    /// Boxes `value`, which already belongs to `serialContext`: other state of the context still reaches it (an
    /// engine object that other work items refer to), so it cannot be handed over with `sending`. On the serial
    /// context everything the context owns is confined to it, so the box may be made there, and only there
    /// (checked like every access; swift-nio's `NIOLoopBound.init(_:eventLoop:)`).
    public init(confined value: Value, serialContext: any SerialContext, _ function: StaticString = #function,
                file: StaticString = #fileID, line: UInt = #line) {
        serialContext.assertOnSerialContext(function, file: file, line: line)
        self.serialContext = serialContext
        storage = value
    }

    /// Boxes `value` on `serialContext`, hopping onto it through `perform`: for an engine object that a thread off
    /// the context shares with it (the composition root's controller) and hands to a `@Sendable` closure.
    public static func confining(_ value: Value, to serialContext: any SerialContext) -> SerialContextBound<Value> {
        serialContext.perform { SerialContextBound(confined: value, serialContext: serialContext) }
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

/// A weak reference to an object of the serial context, for work that hops through the context and must not keep
/// the object alive (a clip's timer that may outlive the clip): `object` is `nil` once the object is gone. Made and
/// read on the serial context only, like any `SerialContextBound`; the reference itself may cross threads.
public struct WeakSerialContextBound<Object: AnyObject>: Sendable {
    /// Holds the weak reference, inside the box.
    private final class Reference {
        weak var object: Object?
        init(_ object: Object) { self.object = object }
    }

    private let box: SerialContextBound<Reference>

    /// A weak reference to `object`, which belongs to `serialContext`; call it on the serial context.
    public init(_ object: Object, serialContext: any SerialContext, _ function: StaticString = #function,
                file: StaticString = #fileID, line: UInt = #line) {
        box = SerialContextBound(confined: Reference(object), serialContext: serialContext, function, file: file,
                                 line: line)
    }

    /// The object, or `nil` once it is gone; reading it off the serial context is reported (a trap in the program).
    public var object: Object? { box.value.object }

    /// The context the object belongs to.
    public var serialContext: any SerialContext { box.serialContext }
}
