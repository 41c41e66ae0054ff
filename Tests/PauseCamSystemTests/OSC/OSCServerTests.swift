import Foundation
import XCTest
@testable import PauseCamCore
@testable import PauseCamSystem

/// The OSC endpoint's thread and socket against a client socket on loopback (IPv4 and IPv6): a command answered to
/// its sender, a packet too large and a broken one counted, the state sent on a wake and once a second.
final class OSCServerTests: XCTestCase {
    private final class Box<Value: Sendable>: Sendable {
        private let value: Guarded<Value>
        init(_ value: Value) { self.value = Guarded(value) }
        func set(_ new: Value) { value.withLock { $0 = new } }
        var get: Value { value.withLock { $0 } }
        func update(_ body: (inout Value) -> Void) { value.withLock { body(&$0) } }
    }

    static let idle = OSCFeedbackState(state: "idle", timerSeconds: 0, timerText: "00:00:00.0", scene: 0,
                                       sceneName: "", lens: "main", zoom: 1,
                                       tally: [.init(lens: "wide", state: "off"), .init(lens: "main", state: "off")],
                                       droppedFrames: 0)

    /// Reads datagrams on `socket` until one decodes to a message `condition` accepts (at most `seconds`).
    private func receive(_ socket: UDPSocket, seconds: Double = 10,
                         until condition: (OSCMessage) -> Bool) -> OSCMessage? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            _ = try? socket.descriptor.poll(timeout: 100)
            while let datagram = try? socket.receive(capacity: 65536) {
                if case .success(let message) = OSCCodec.decode(datagram.bytes), condition(message) { return message }
            }
        }
        return nil
    }

    private func start(listen: OSCPeer, feedback: [OSCPeer] = [], lines: Box<[String]>,
                       state: Box<OSCFeedbackState>) throws -> OSCServer {
        let responder = OSCResponder(settings: OSCSettings(listen: listen, feedback: feedback),
                                     parser: CommandParser(lenses: ["wide", "main"])) { line in
            lines.update { $0.append(line) }
            return ControlReply(ok: true, message: "done: \(line)")
        }
        return try OSCServer.start(responder: responder) { state.get }
    }

    func testCommandsRepliesAndJunkOnBothFamilies() throws {
        for (listen, client) in [("127.0.0.1", "127.0.0.1"), ("::1", "::1")] {
            let lines = Box<[String]>([])
            let state = Box(Self.idle)
            let server: OSCServer
            do {
                server = try start(listen: OSCPeer(host: listen, port: 0), lines: lines, state: state)
            } catch {
                if listen == "::1" { throw XCTSkip("no IPv6 loopback here: \(error)") }
                throw error
            }
            defer { server.stop() }
            XCTAssertNotEqual(server.address.port, 0)
            let socket = try UDPSocket(binding: OSCPeer(host: client, port: 0))
            socket.send(try OSCCodec.encode(OSCMessage("/pausecam/lens", [.string("wide")])), to: server.address)
            let reply = receive(socket) { $0.address == "/pausecam/reply" }
            XCTAssertEqual(reply?.arguments, [.string("lens"), .int32(1), .string("done: lens wide")], listen)
            XCTAssertEqual(lines.get, ["lens wide"])

            socket.send([UInt8](repeating: 47, count: OSCServer.maximumPacketBytes + 1), to: server.address)
            XCTAssertEqual(receive(socket) { $0.address == "/pausecam/error" }?.arguments.last, .string("too_large"))
            socket.send(Array("/pausecam/stop".utf8), to: server.address)
            XCTAssertEqual(receive(socket) { $0.address == "/pausecam/error" }?.arguments.last, .string("malformed"))
            XCTAssertEqual(lines.get, ["lens wide"], "junk reached the engine")
        }
    }

    func testTheStateGoesToSubscribersOnAWakeAndOnceASecond() throws {
        let listener = try UDPSocket(binding: OSCPeer(host: "127.0.0.1", port: 0))
        let lines = Box<[String]>([])
        let state = Box(Self.idle)
        let server = try start(listen: OSCPeer(host: "127.0.0.1", port: 0), feedback: [listener.local], lines: lines,
                               state: state)
        defer { server.stop() }
        XCTAssertNotNil(receive(listener) { $0 == OSCMessage("/pausecam/state", [.string("idle")]) },
                        "the whole state once a second")
        XCTAssertNotNil(receive(listener) { $0.address == "/pausecam/dropped" }, "the whole set ends with dropped")
        var recording = Self.idle
        recording.state = "recording"
        recording.lens = "wide"
        state.set(recording)
        server.stateChanged()
        // What the wake sends is the changes alone, before any later whole set: no scene, which did not change.
        var seen: [String] = []
        XCTAssertNotNil(receive(listener) { message in
            seen.append(message.address)
            return message == OSCMessage("/pausecam/lens", [.string("wide")])
        })
        XCTAssertEqual(seen, ["/pausecam/state", "/pausecam/recording", "/pausecam/paused", "/pausecam/timer",
                              "/pausecam/timer/text", "/pausecam/lens"])
    }
}
