import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL
import NIOTLS

/// One request as the test client sends it; headers are a list so tests can repeat one.
struct TestRequest: Sendable {
    var method = "POST"
    var path: String
    var headers: [(String, String)]
    var body: Data?

    init(method: String = "POST", path: String, headers: [(String, String)] = [], body: Data? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// A well-formed APNs request for `token` (topic, alert push type, a small payload).
    static func apns(
        token: String = String(repeating: "ab", count: 32),
        jwt: String?,
        extraHeaders: [(String, String)] = [],
        payload: String = #"{"aps":{"alert":"hello"}}"#
    ) -> TestRequest {
        var headers: [(String, String)] = [("apns-topic", "com.example.app"), ("apns-push-type", "alert")]
        if let jwt { headers.append(("authorization", "bearer \(jwt)")) }
        headers += extraHeaders
        return TestRequest(path: "/3/device/\(token)", headers: headers, body: Data(payload.utf8))
    }
}

/// How a stream ended, as the test client saw it.
struct TestResponse: Sendable {
    enum Outcome: Sendable, Equatable {
        /// A complete response arrived.
        case answered
        /// The server reset the stream.
        case reset(HTTP2ErrorCode)
        /// The stream ended without an answer (GOAWAY above lastStreamID, or the connection closed).
        case unanswered
    }

    var streamID: Int
    var outcome: Outcome
    var status: Int?
    var headers: [(String, String)]
    var body: Data

    func header(_ name: String) -> String? {
        self.headers.first(where: { $0.0 == name })?.1
    }

    /// `reason` from a JSON error body.
    var reason: String? { self.json?["reason"] as? String }

    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: self.body)) as? [String: Any]
    }
}

/// A GOAWAY the client received.
struct ReceivedGoAway: Sendable {
    var lastStreamID: Int
    var errorCode: HTTP2ErrorCode
    var debugData: String
}

struct TestTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(self.what)" }
}

/// A deliberately low-level HTTP/2 client for driving the mock: it writes raw frames on
/// NIOHTTP2 (no multiplexer, no header validation), so tests can send malformed requests and
/// observe SETTINGS, RST_STREAM and GOAWAY frames exactly.
final class H2TestClient: Sendable {
    let channel: any Channel
    private let handler: NIOLoopBound<ClientFrameHandler>

    private init(channel: any Channel, handler: NIOLoopBound<ClientFrameHandler>) {
        self.channel = channel
        self.handler = handler
    }

    /// A client certificate and its key (PEM paths).
    struct ClientCertificate: Sendable {
        let certificatePath: String
        let keyPath: String

        /// The dev client certificate, signed by the dev CA.
        static let dev = ClientCertificate(certificatePath: DevCertificates.clientPEM, keyPath: DevCertificates.clientKey)
        /// Signed by the dev CA but past its notAfter.
        static let expired = ClientCertificate(
            certificatePath: DevCertificates.path("bad/expired.pem"),
            keyPath: DevCertificates.path("bad/expired.key")
        )
    }

    /// Connects with TLS (trusting the dev CA), optionally presenting a client certificate, and
    /// waits for the TLS handshake.
    static func connect(
        port: Int,
        clientCertificate: ClientCertificate? = nil,
        timeout: Duration = .seconds(60)
    ) async throws -> H2TestClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(DevCertificates.caPEM))
        tls.applicationProtocols = ["h2"]
        if let clientCertificate {
            tls.certificateChain = try NIOSSLCertificate.fromPEMFile(clientCertificate.certificatePath).map { .certificate($0) }
            tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: clientCertificate.keyPath, format: .pem))
        }
        let sslContext = try NIOSSLContext(configuration: tls)
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let handshake = eventLoop.makePromise(of: Void.self)
        let handlerPromise = eventLoop.makePromise(of: NIOLoopBound<ClientFrameHandler>.self)
        let channel = try await ClientBootstrap(group: eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: "localhost"))
                    try sync.addHandler(HandshakeWatcher(promise: handshake))
                    var connection = NIOHTTP2Handler.ConnectionConfiguration()
                    connection.headerBlockValidation = .disabled
                    connection.contentLengthValidation = .disabled
                    try sync.addHandler(
                        NIOHTTP2Handler(mode: .client, frameDelegate: nil, connectionConfiguration: connection)
                    )
                    let frames = ClientFrameHandler()
                    try sync.addHandler(frames)
                    handlerPromise.succeed(NIOLoopBound(frames, eventLoop: channel.eventLoop))
                }
            }
            .connect(host: "127.0.0.1", port: port)
            .get()
        do {
            try await awaitFuture(handshake.futureResult, timeout: timeout, what: "the TLS handshake")
        } catch {
            try? await channel.close()
            throw error
        }
        return H2TestClient(channel: channel, handler: try await handlerPromise.futureResult.get())
    }

    /// Sends `request` and waits for how its stream ends.
    func send(_ request: TestRequest, timeout: Duration = .seconds(60)) async throws -> TestResponse {
        try await self.sendAll([request], timeout: timeout)[0]
    }

    /// Sends `requests` in one flush (so they are pipelined) and waits for all their streams.
    func sendAll(_ requests: [TestRequest], timeout: Duration = .seconds(60)) async throws -> [TestResponse] {
        let futures = try await self.start(requests)
        var responses: [TestResponse] = []
        for future in futures {
            responses.append(try await awaitFuture(future, timeout: timeout, what: "a response"))
        }
        return responses
    }

    /// Sends `requests` in one flush and returns futures of their outcomes without waiting.
    func start(_ requests: [TestRequest]) async throws -> [EventLoopFuture<TestResponse>] {
        let handler = self.handler
        return try await self.channel.eventLoop.submit { handler.value.send(requests) }.get()
    }

    /// Resets a stream the client opened (RST_STREAM CANCEL).
    func cancel(streamID: Int) async throws {
        let handler = self.handler
        try await self.channel.eventLoop.submit { handler.value.cancel(streamID: HTTP2StreamID(streamID)) }.get()
    }

    /// Waits for a SETTINGS frame (already received or future) whose parameters satisfy `predicate`.
    func settings(
        timeout: Duration = .seconds(60),
        where predicate: @escaping @Sendable (HTTP2Settings) -> Bool
    ) async throws -> HTTP2Settings {
        let handler = self.handler
        let future = try await self.channel.eventLoop.submit { handler.value.settings(where: predicate) }.get()
        return try await awaitFuture(future, timeout: timeout, what: "a matching SETTINGS frame")
    }

    /// Waits for SETTINGS_MAX_CONCURRENT_STREAMS == `value`.
    func maxConcurrentStreams(_ value: Int, timeout: Duration = .seconds(60)) async throws {
        _ = try await self.settings(timeout: timeout) { settings in
            settings.contains { $0.parameter == .maxConcurrentStreams && $0.value == value }
        }
    }

    /// All SETTINGS frames received so far.
    func receivedSettings() async throws -> [HTTP2Settings] {
        let handler = self.handler
        return try await self.channel.eventLoop.submit { handler.value.receivedSettings }.get()
    }

    /// Waits for the server's GOAWAY.
    func goAway(timeout: Duration = .seconds(60)) async throws -> ReceivedGoAway {
        let handler = self.handler
        let future = try await self.channel.eventLoop.submit { handler.value.goAway() }.get()
        return try await awaitFuture(future, timeout: timeout, what: "GOAWAY")
    }

    /// Waits until the connection is closed (by either side).
    func closed(timeout: Duration = .seconds(60)) async throws {
        try await awaitFuture(self.channel.closeFuture, timeout: timeout, what: "the connection to close")
    }

    func close() async {
        try? await self.channel.close()
    }
}

/// Awaits `future`, failing with ``TestTimeout`` at the deadline.
func awaitFuture<Value: Sendable>(
    _ future: EventLoopFuture<Value>,
    timeout: Duration,
    what: String
) async throws -> Value {
    let eventLoop = future.eventLoop
    let result = eventLoop.makePromise(of: Value.self)
    let done = NIOLoopBoundBox.makeBoxSendingValue(false, eventLoop: eventLoop)
    let components = timeout.components
    let nanoseconds = components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    let timer = eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
        guard !done.value else { return }
        done.value = true
        result.fail(TestTimeout(what: what))
    }
    future.whenComplete { outcome in
        timer.cancel()
        guard !done.value else { return }
        done.value = true
        result.completeWith(outcome)
    }
    return try await result.futureResult.get()
}

/// Completes a promise when the TLS handshake is done, fails it if the connection dies first.
private final class HandshakeWatcher: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny
    private let promise: EventLoopPromise<Void>

    init(promise: EventLoopPromise<Void>) {
        self.promise = promise
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event { self.promise.succeed(()) }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.promise.fail(error)
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.promise.fail(ChannelError.eof)
        context.fireChannelInactive()
    }
}

/// The frame-level half of ``H2TestClient``; lives on the channel's event loop.
final class ClientFrameHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    private struct Pending {
        let promise: EventLoopPromise<TestResponse>
        var status: Int?
        var headers: [(String, String)] = []
        var body = Data()
    }

    private var context: ChannelHandlerContext?
    private var nextStreamID = HTTP2StreamID(1)
    private var pending: [HTTP2StreamID: Pending] = [:]
    private(set) var receivedSettings: [HTTP2Settings] = []
    private var settingsWaiters: [(predicate: (HTTP2Settings) -> Bool, promise: EventLoopPromise<HTTP2Settings>)] = []
    private var receivedGoAway: ReceivedGoAway?
    private var goAwayWaiters: [EventLoopPromise<ReceivedGoAway>] = []
    private var uncreditedBytes = 0
    private var isClosed = false

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func send(_ requests: [TestRequest]) -> [EventLoopFuture<TestResponse>] {
        guard let context = self.context else {
            return requests.map { _ in MultiThreadedEventLoopGroup.singleton.any().makeFailedFuture(ChannelError.ioOnClosedChannel) }
        }
        var futures: [EventLoopFuture<TestResponse>] = []
        for request in requests {
            let streamID = self.nextStreamID
            self.nextStreamID = streamID.advanced(by: 2)
            let promise = context.eventLoop.makePromise(of: TestResponse.self)
            futures.append(promise.futureResult)
            if self.isClosed {
                // The connection died before this request (e.g. a TLS alert right after the handshake).
                promise.succeed(TestResponse(streamID: Int(streamID), outcome: .unanswered, headers: [], body: Data()))
                continue
            }
            self.pending[streamID] = Pending(promise: promise)
            var headers = HPACKHeaders()
            headers.add(name: ":method", value: request.method)
            headers.add(name: ":scheme", value: "https")
            headers.add(name: ":authority", value: "localhost")
            headers.add(name: ":path", value: request.path)
            for (name, value) in request.headers { headers.add(name: name, value: value) }
            let hasBody = request.body.map { !$0.isEmpty } ?? false
            context.write(
                self.wrapOutboundOut(
                    HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers, endStream: !hasBody)))
                ),
                promise: nil
            )
            if let body = request.body, hasBody {
                // Split like a real client would (16 KiB frames), so big bodies exercise flow control.
                var offset = 0
                while offset < body.count {
                    let end = min(body.count, offset + 16_384)
                    let chunk = context.channel.allocator.buffer(bytes: body[offset..<end])
                    context.write(
                        self.wrapOutboundOut(
                            HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(chunk), endStream: end == body.count)))
                        ),
                        promise: nil
                    )
                    offset = end
                }
            }
        }
        context.flush()
        return futures
    }

    func cancel(streamID: HTTP2StreamID) {
        guard let context = self.context else { return }
        // Settle first: writing the RST makes NIO report the stream closed straight away.
        self.finish(streamID, outcome: .reset(.cancel))
        context.writeAndFlush(self.wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(.cancel))), promise: nil)
    }

    func settings(where predicate: @escaping (HTTP2Settings) -> Bool) -> EventLoopFuture<HTTP2Settings> {
        let eventLoop = self.context!.eventLoop
        if let match = self.receivedSettings.first(where: predicate) { return eventLoop.makeSucceededFuture(match) }
        let promise = eventLoop.makePromise(of: HTTP2Settings.self)
        self.settingsWaiters.append((predicate, promise))
        return promise.futureResult
    }

    func goAway() -> EventLoopFuture<ReceivedGoAway> {
        let eventLoop = self.context!.eventLoop
        if let goAway = self.receivedGoAway { return eventLoop.makeSucceededFuture(goAway) }
        let promise = eventLoop.makePromise(of: ReceivedGoAway.self)
        self.goAwayWaiters.append(promise)
        return promise.futureResult
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = self.unwrapInboundIn(data)
        switch frame.payload {
        case .headers(let headers):
            guard var pending = self.pending[frame.streamID] else { return }
            for header in headers.headers {
                if header.name == ":status" {
                    pending.status = Int(header.value)
                } else {
                    pending.headers.append((header.name, header.value))
                }
            }
            self.pending[frame.streamID] = pending
            if headers.endStream { self.finish(frame.streamID, outcome: .answered) }
        case .data(let data):
            if case .byteBuffer(let buffer) = data.data {
                self.pending[frame.streamID]?.body.append(contentsOf: buffer.readableBytesView)
                self.uncreditedBytes += buffer.readableBytes
                if self.uncreditedBytes >= 32_768 {
                    context.writeAndFlush(
                        self.wrapOutboundOut(
                            HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: self.uncreditedBytes))
                        ),
                        promise: nil
                    )
                    self.uncreditedBytes = 0
                }
            }
            if data.endStream { self.finish(frame.streamID, outcome: .answered) }
        case .rstStream(let code):
            self.finish(frame.streamID, outcome: .reset(code))
        case .settings(.settings(let settings)):
            self.receivedSettings.append(settings)
            let waiters = self.settingsWaiters
            self.settingsWaiters.removeAll()
            for waiter in waiters {
                if waiter.predicate(settings) {
                    waiter.promise.succeed(settings)
                } else {
                    self.settingsWaiters.append(waiter)
                }
            }
        case .goAway(let lastStreamID, let errorCode, let opaqueData):
            let goAway = ReceivedGoAway(
                lastStreamID: Int(lastStreamID),
                errorCode: errorCode,
                debugData: opaqueData.map { String(buffer: $0) } ?? ""
            )
            self.receivedGoAway = goAway
            for waiter in self.goAwayWaiters { waiter.succeed(goAway) }
            self.goAwayWaiters.removeAll()
        default:
            break
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let closed = event as? StreamClosedEvent {
            // Closed by NIO without an answer: above a GOAWAY's lastStreamID, or connection loss.
            self.finish(closed.streamID, outcome: .unanswered)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.isClosed = true
        for streamID in Array(self.pending.keys) { self.finish(streamID, outcome: .unanswered) }
        for waiter in self.settingsWaiters { waiter.promise.fail(ChannelError.eof) }
        self.settingsWaiters.removeAll()
        for waiter in self.goAwayWaiters { waiter.fail(ChannelError.eof) }
        self.goAwayWaiters.removeAll()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func finish(_ streamID: HTTP2StreamID, outcome: TestResponse.Outcome) {
        guard let pending = self.pending.removeValue(forKey: streamID) else { return }
        pending.promise.succeed(
            TestResponse(
                streamID: Int(streamID),
                outcome: outcome,
                status: pending.status,
                headers: pending.headers,
                body: pending.body
            )
        )
    }
}
