import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Testing
@testable import PushService

/// The handler on in-memory channels: what it reports to the gate over a connection's life,
/// the channels the gate closes, and the deadlines — behind the real HTTP/1 codec, set up as
/// Hummingbird does, so the parts and read completions are the ones the server sees. Time is
/// the embedded event loop's, advanced by the tests.
@Suite(.timeLimit(.minutes(5))) struct ConnectionLimitHandlerTests {
    let gate = ConnectionGate(maximum: 2, headerTimeout: .seconds(10), bodyTimeout: .seconds(30), logger: Logger(label: "test"))

    /// A connection with the handler alone: the tests write request parts themselves.
    func connect() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: ConnectionLimitHandler(gate: gate))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    /// A connection with the HTTP/1 codec in front of the handler: the tests write bytes.
    func connectHTTP() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false)
        try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
        try channel.pipeline.syncOperations.addHandler(ConnectionLimitHandler(gate: gate))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    /// Closes `channel` and runs what its close future triggers.
    func close(_ channel: EmbeddedChannel) throws {
        try channel.close().wait()
        channel.embeddedEventLoop.run()
    }

    /// Everything written to `channel`'s socket so far, as text.
    func written(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
        return text
    }

    static let head = HTTPRequestPart.head(HTTPRequest(method: .post, scheme: "http", authority: "relay", path: "/webhooks/sendbird"))
    static let responseHead = HTTPResponsePart.head(HTTPResponse(status: .ok))
    static let webhookHead = "POST /webhooks/sendbird HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\n"
    static let signedHead = webhookHead + "x-sendbird-signature: \(String(repeating: "0", count: 64))\r\nContent-Length: 100\r\n\r\n"

    /// A request received in full: head and end.
    static func request(_ channel: EmbeddedChannel) throws {
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
    }

    static func respond(_ channel: EmbeddedChannel) throws {
        try channel.writeOutbound(Self.responseHead)
        try channel.writeOutbound(HTTPResponsePart.end(nil))
    }

    @Test func atTheLimitTheIdleConnectionIsClosedForTheNewOne() throws {
        let a = try connect()
        let b = try connect()
        try Self.request(b)
        try Self.respond(b)  // b is kept alive between requests: idle
        try a.writeInbound(Self.head)  // a is sending its request
        let c = try connect()
        #expect(!b.isActive, "the idle connection makes room")
        #expect(a.isActive && c.isActive)
        #expect(gate.openCount == 2)
        _ = try? a.finish()
        _ = try? c.finish()
    }

    @Test func withNoneIdleTheOneSendingItsRequestTheLongestIsClosed() throws {
        let a = try connect()
        let b = try connect()
        try b.writeInbound(Self.head)  // b's body trickles
        try Self.request(a)  // a's request is in: being handled
        try a.writeInbound(Self.head)  // and the next one started
        #expect(gate.receivingCount == 1 && gate.idleCount == 0)
        let c = try connect()
        #expect(!b.isActive, "the request still arriving makes room")
        #expect(a.isActive && c.isActive)
        _ = try? a.finish()
        _ = try? c.finish()
    }

    @Test func withEveryConnectionHandlingTheNewOneIsRefused() throws {
        let a = try connect()
        let b = try connect()
        try Self.request(a)
        try Self.request(b)
        let c = try connect()
        #expect(!c.isActive)
        #expect(a.isActive && b.isActive)
        // b answers: idle again, so the next newcomer replaces it.
        try Self.respond(b)
        let d = try connect()
        #expect(!b.isActive && d.isActive && a.isActive)
        #expect(gate.openCount == 2)
        _ = try? a.finish()
        _ = try? d.finish()
    }

    @Test func everyCloseIsCountedOut() throws {
        let a = try connect()
        let b = try connect()
        try Self.request(a)
        try close(a)  // mid-request
        #expect(gate.openCount == 1)
        try close(b)
        #expect(gate.openCount == 0)
        // A refused connection is never counted.
        let c = try connect(), d = try connect()
        try Self.request(c)
        try Self.request(d)
        let e = try connect()
        #expect(!e.isActive && gate.openCount == 2)
        try close(c)
        try close(d)
        #expect(gate.openCount == 0 && gate.idleCount == 0 && gate.receivingCount == 0)
    }

    @Test func aNewConnectionIsFreshUntilItsFirstBytesAndAKeptAliveOneIdle() throws {
        let a = try connectHTTP()
        #expect(gate.freshCount == 1)
        try a.writeInbound(ByteBuffer(string: "POST /webhooks/sen"))
        #expect(gate.freshCount == 0 && gate.receivingCount == 1)
        try a.writeInbound(ByteBuffer(string: "dbird HTTP/1.1\r\nHost: relay\r\nContent-Length: 2\r\n\r\n{}"))
        #expect(gate.receivingCount == 0 && gate.idleCount == 0)
        try Self.respond(a)
        a.embeddedEventLoop.run()
        #expect(gate.idleCount == 1)
        try a.writeInbound(ByteBuffer(string: "GET /health"))
        #expect(gate.idleCount == 0 && gate.receivingCount == 1)
        _ = try? a.finish()
    }

    @Test func aHeadTrickledPastItsDeadlineIsAnswered408AndClosed() throws {
        let a = try connectHTTP()
        let loop = a.embeddedEventLoop
        // One byte a second: every byte arrives, none restarts the deadline.
        for byte in Self.webhookHead.utf8.prefix(9) {
            loop.advanceTime(by: .seconds(1))
            try a.writeInbound(ByteBuffer(bytes: [byte]))
        }
        #expect(a.isActive)
        loop.advanceTime(by: .seconds(1))
        #expect(!a.isActive)
        #expect(throws: RequestDeadlineExceeded(stage: .header)) { try a.throwIfErrorCaught() }
        let answer = try written(a)
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(answer)")
        #expect(answer.lowercased().contains("connection: close"))
        #expect(answer.hasSuffix(#"{"message":"The request head was not received within 10 s.","code":400111,"error":true}"#))
        loop.run()
        #expect(gate.openCount == 0)
    }

    @Test func aNewConnectionThatSendsNothingIsAnswered408AtTheHeadDeadline() throws {
        let a = try connectHTTP()
        a.embeddedEventLoop.advanceTime(by: .milliseconds(9_999))
        #expect(a.isActive)
        a.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!a.isActive)
        #expect(try written(a).hasPrefix("HTTP/1.1 408 "))
    }

    @Test func aBodyTrickledPastItsDeadlineIsAnswered408AndItsReaderFails() throws {
        let a = try connectHTTP()
        let loop = a.embeddedEventLoop
        loop.advanceTime(by: .seconds(9))
        try a.writeInbound(ByteBuffer(string: Self.signedHead))
        #expect(try a.readInbound(as: HTTPRequestPart.self).map { if case .head = $0 { true } else { false } } == true)
        // The head met its deadline; the body has 30 s from the head, whatever arrives.
        for _ in 0..<29 {
            loop.advanceTime(by: .seconds(1))
            try a.writeInbound(ByteBuffer(string: "{"))
        }
        #expect(a.isActive)
        loop.advanceTime(by: .seconds(1))
        #expect(!a.isActive)
        #expect(throws: RequestDeadlineExceeded(stage: .body)) { try a.throwIfErrorCaught() }
        let answer = try written(a)
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(answer)")
        #expect(answer.hasSuffix(#"{"message":"The request body was not received within 30 s of its head.","code":400111,"error":true}"#))
        // What the request's handler writes afterwards is dropped.
        #expect(throws: ChannelError.self) { try a.writeOutbound(Self.responseHead) }
    }

    @Test func aRequestReceivedInFullHasNoDeadlineAndIdleAfterItsResponse() throws {
        let a = try connectHTTP()
        let loop = a.embeddedEventLoop
        try a.writeInbound(ByteBuffer(string: Self.webhookHead + "Content-Length: 2\r\n\r\n{}"))
        #expect(gate.idleCount == 0 && gate.receivingCount == 0)
        // Handled for longer than both deadlines: untouched.
        loop.advanceTime(by: .seconds(60))
        #expect(a.isActive)
        try Self.respond(a)
        loop.run()
        #expect(gate.idleCount == 1)
        _ = try written(a)
        // Idle: kept for the idle timeout (60 s) after the response; nothing came, so no answer.
        loop.advanceTime(by: .milliseconds(59_999))
        #expect(a.isActive)
        loop.advanceTime(by: .milliseconds(1))
        #expect(!a.isActive)
        #expect(try written(a).isEmpty)
    }

    @Test func aBodyAnsweredEarlyIsClosedAtItsDeadlineWithoutASecondAnswer() throws {
        let a = try connectHTTP()
        let loop = a.embeddedEventLoop
        try a.writeInbound(ByteBuffer(string: Self.signedHead))
        try Self.respond(a)  // an early answer (a 413, say) while the body keeps coming
        loop.run()
        _ = try written(a)
        loop.advanceTime(by: .seconds(30))
        #expect(!a.isActive)
        #expect(try written(a).isEmpty)
    }

    /// Counts the reads that reach the socket.
    final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = NIOAny
        var reads = 0
        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    /// A client that does not read: its answer stays queued (written, never flushed to the
    /// socket here), and at the send timeout (30 s by default) the connection is closed.
    @Test func anAnswerNotReadWithinTheSendTimeoutClosesTheConnection() throws {
        let a = try connect()
        let loop = a.embeddedEventLoop
        try Self.request(a)
        a.write(Self.responseHead, promise: nil)
        a.write(HTTPResponsePart.end(nil), promise: nil)
        loop.run()
        #expect(gate.sendingCount == 1, "waiting on its client to read")
        loop.advanceTime(by: .milliseconds(29_999))
        #expect(a.isActive)
        loop.advanceTime(by: .milliseconds(1))
        #expect(!a.isActive)
        #expect(gate.sendingCount == 0)
    }

    /// With two answers waiting for the socket the connection reads no more requests; once one is
    /// written the held read goes through.
    @Test func twoUnreadAnswersHoldTheNextRead() throws {
        let counter = ReadCounter()
        let a = EmbeddedChannel()
        try a.pipeline.syncOperations.addHandler(counter)
        try a.pipeline.syncOperations.addHandler(ConnectionLimitHandler(gate: gate))
        try a.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let written = a.eventLoop.makePromise(of: Void.self)
        for n in 0..<2 {
            try Self.request(a)
            a.write(Self.responseHead, promise: nil)
            a.write(HTTPResponsePart.end(nil), promise: n == 0 ? written : nil)
        }
        let before = counter.reads
        a.read()
        #expect(counter.reads == before, "held")
        a.flush()  // the socket takes both answers
        #expect(counter.reads == before + 1, "the held read went through")
        try close(a)
    }

    /// At the limit, a connection whose client has not read its answer for longest goes before a
    /// new one is refused, even when every other connection is handling a request.
    @Test func atTheLimitTheConnectionNotReadingIsClosedForTheNewOne() throws {
        let a = try connect()
        let b = try connect()
        try Self.request(a)
        try Self.request(b)
        a.write(Self.responseHead, promise: nil)
        a.write(HTTPResponsePart.end(nil), promise: nil)
        a.embeddedEventLoop.run()
        let c = try connect()
        #expect(!a.isActive, "a did not read its answer: closed for c")
        #expect(b.isActive && c.isActive)
        try close(b)
        try close(c)
    }

    /// Heads that reached the request loop so far.
    func heads(_ channel: EmbeddedChannel) throws -> Int {
        var count = 0
        while let part = try channel.readInbound(as: HTTPRequestPart.self) {
            if case .head = part { count += 1 }
        }
        return count
    }

    /// Five requests pipelined at once: two go on, the rest wait until answers reach the socket.
    @Test func pipelinedRequestsBeyondTwoWaitForTheAnswers() throws {
        let a = try connectHTTP()
        let get = "GET /health HTTP/1.1\r\nHost: relay\r\n\r\n"
        try a.writeInbound(ByteBuffer(string: String(repeating: get, count: 5)))
        #expect(try heads(a) == 2)
        try Self.respond(a)
        a.embeddedEventLoop.run()
        #expect(try heads(a) == 1, "one answer out: one more request")
        try Self.respond(a)
        try Self.respond(a)
        a.embeddedEventLoop.run()
        #expect(try heads(a) == 2)
        try close(a)
    }
}
