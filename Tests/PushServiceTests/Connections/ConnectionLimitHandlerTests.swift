import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing
@testable import PushService

/// The handler on in-memory channels: what it reports to the gate over a connection's life,
/// and the channels the gate closes.
@Suite struct ConnectionLimitHandlerTests {
    let gate = ConnectionGate(maximum: 2, logger: Logger(label: "test"))

    func connect() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: ConnectionLimitHandler(gate: gate))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    /// Closes `channel` and runs what its close future triggers.
    func close(_ channel: EmbeddedChannel) throws {
        try channel.close().wait()
        channel.embeddedEventLoop.run()
    }

    static let head = HTTPRequestPart.head(HTTPRequest(method: .post, scheme: "http", authority: "relay", path: "/webhooks/sendbird"))
    static let responseHead = HTTPResponsePart.head(HTTPResponse(status: .ok))

    @Test func atTheLimitTheIdleConnectionIsClosedForTheNewOne() throws {
        let a = try connect()
        let b = try connect()
        try b.writeInbound(Self.head)
        let c = try connect()
        #expect(!a.isActive, "the idle connection makes room")
        #expect(b.isActive && c.isActive)
        #expect(gate.openCount == 2)
        _ = try? b.finish()
        _ = try? c.finish()
    }

    @Test func withEveryConnectionBusyTheNewOneIsRefused() throws {
        let a = try connect()
        let b = try connect()
        try a.writeInbound(Self.head)
        try b.writeInbound(Self.head)
        let c = try connect()
        #expect(!c.isActive)
        #expect(a.isActive && b.isActive)
        // b answers: idle again, so the next newcomer replaces it.
        try b.writeOutbound(Self.responseHead)
        try b.writeOutbound(HTTPResponsePart.end(nil))
        let d = try connect()
        #expect(!b.isActive && d.isActive && a.isActive)
        #expect(gate.openCount == 2)
        _ = try? a.finish()
        _ = try? d.finish()
    }

    @Test func everyCloseIsCountedOut() throws {
        let a = try connect()
        let b = try connect()
        try a.writeInbound(Self.head)
        try close(a)  // mid-request
        #expect(gate.openCount == 1)
        try close(b)
        #expect(gate.openCount == 0)
        // A refused connection is never counted.
        let c = try connect(), d = try connect()
        try c.writeInbound(Self.head)
        try d.writeInbound(Self.head)
        let e = try connect()
        #expect(!e.isActive && gate.openCount == 2)
        try close(c)
        try close(d)
        #expect(gate.openCount == 0 && gate.idleCount == 0)
    }
}
