import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import NIOTLS

/// One request as a test sends it.
struct TestRequest: Sendable {
    var method: HTTPMethod = .POST
    var path: String
    var headers: [(String, String)] = []
    var body = Data()
}

/// One answer as a test sees it.
struct TestResponse: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: Data

    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
    /// Huawei's result code.
    var code: String? { json?["code"] as? String }
    var msg: String? { json?["msg"] as? String }
}

struct TestTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// A client of the mock on NIO's own HTTP/1.1 pipeline or NIOHTTP2, as TLS's ALPN chooses between
/// the protocols it offers (none offered: no ALPN, HTTP/1.1); or plaintext HTTP/1.1 for the admin port.
/// HTTP/1.1 requests go one after another on the connection; HTTP/2 ones each on a stream of its own.
final class HMSTestClient: Sendable {
    enum Transport: Sendable {
        case tls(alpn: [String])
        case plaintext
    }

    private enum Connection: Sendable {
        case http1(NIOLoopBound<ResponseCollector>)
        case h2(NIOHTTP2Handler.StreamMultiplexer)
    }

    let channel: any Channel
    /// What ALPN chose: `h2`, `http/1.1`, or nil when nothing was negotiated.
    let negotiatedProtocol: String?
    private let connection: Connection

    private init(channel: any Channel, negotiatedProtocol: String?, connection: Connection) {
        self.channel = channel
        self.negotiatedProtocol = negotiatedProtocol
        self.connection = connection
    }

    static func connect(port: Int, transport: Transport, timeout: Duration = .seconds(60)) async throws -> HMSTestClient {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let ready = eventLoop.makePromise(of: (String?, Connection).self)
        let settled = NIOLoopBoundBox.makeBoxSendingValue(false, eventLoop: eventLoop)
        @Sendable func settle(_ result: Result<(String?, Connection), any Error>) {
            guard !settled.value else { return }
            settled.value = true
            ready.completeWith(result)
        }
        let sslContext = try transport.sslContext()
        let channel = try await ClientBootstrap(group: eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.closeFuture.whenComplete { _ in settle(.failure(ChannelError.eof)) }
                return channel.eventLoop.makeCompletedFuture {
                    guard let sslContext else {
                        settle(.success((nil, try configureHTTP1(channel))))
                        return
                    }
                    try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: "localhost"))
                    try channel.pipeline.syncOperations.addHandler(
                        ApplicationProtocolNegotiationHandler { result, channel in
                            channel.eventLoop.makeCompletedFuture {
                                switch result {
                                case .negotiated("h2"): settle(.success(("h2", try configureH2(channel))))
                                case .negotiated(let other): settle(.success((other, try configureHTTP1(channel))))
                                case .fallback: settle(.success((nil, try configureHTTP1(channel))))
                                }
                            }
                        })
                }
            }
            .connect(host: "127.0.0.1", port: port)
            .get()
        do {
            let (negotiated, connection) = try await awaitFuture(ready.futureResult, timeout: timeout, what: "the TLS handshake")
            return HMSTestClient(channel: channel, negotiatedProtocol: negotiated, connection: connection)
        } catch {
            try? await channel.close()
            throw error
        }
    }

    private static func configureHTTP1(_ channel: any Channel) throws -> Connection {
        let collector = ResponseCollector()
        try channel.pipeline.syncOperations.addHTTPClientHandlers()
        try channel.pipeline.syncOperations.addHandler(collector)
        return .http1(NIOLoopBound(collector, eventLoop: channel.eventLoop))
    }

    private static func configureH2(_ channel: any Channel) throws -> Connection {
        let multiplexer = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
            mode: .client, connectionConfiguration: .init(), streamConfiguration: .init()
        ) { pushed in
            pushed.close()
        }
        return .h2(multiplexer)
    }

    /// Sends `request` and waits for its answer.
    func send(_ request: TestRequest, timeout: Duration = .seconds(60)) async throws -> TestResponse {
        let eventLoop = channel.eventLoop
        let answer = eventLoop.makePromise(of: TestResponse.self)
        let target: any Channel
        switch connection {
        case .http1(let collector):
            target = channel
            try await eventLoop.submit { collector.value.expect(answer) }.get()
        case .h2(let multiplexer):
            target = try await multiplexer.createStreamChannel { stream in
                stream.eventLoop.makeCompletedFuture {
                    let collector = ResponseCollector()
                    collector.expect(answer)
                    try stream.pipeline.syncOperations.addHandlers([HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: .https), collector])
                }
            }.get()
        }
        var headers = HTTPHeaders(request.headers)
        headers.replaceOrAdd(name: "host", value: "localhost")
        headers.replaceOrAdd(name: "content-length", value: String(request.body.count))
        let head = HTTPRequestHead(version: .http1_1, method: request.method, uri: request.path, headers: headers)
        target.write(HTTPClientRequestPart.head(head), promise: nil)
        if !request.body.isEmpty {
            target.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: request.body))), promise: nil)
        }
        target.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        return try await awaitFuture(answer.futureResult, timeout: timeout, what: "an answer to \(request.method) \(request.path)")
    }

    func close() async {
        try? await channel.close()
    }
}

extension HMSTestClient.Transport {
    /// The client's TLS context, trusting the dev CA and offering `alpn`; nil for plaintext.
    fileprivate func sslContext() throws -> NIOSSLContext? {
        guard case .tls(let alpn) = self else { return nil }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(DevCertificates.caPEM))
        tls.applicationProtocols = alpn
        return try NIOSSLContext(configuration: tls)
    }
}

/// Collects HTTP/1-shaped answers in order, one promise per request sent; lives on its channel's loop.
final class ResponseCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private var waiting: [EventLoopPromise<TestResponse>] = []
    private var current: TestResponse?

    func expect(_ promise: EventLoopPromise<TestResponse>) {
        waiting.append(promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            current = TestResponse(status: Int(head.status.code), headers: head.headers, body: Data())
        case .body(let chunk):
            current?.body.append(contentsOf: chunk.readableBytesView)
        case .end:
            guard let response = current, !waiting.isEmpty else { return }
            current = nil
            waiting.removeFirst().succeed(response)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        for promise in waiting { promise.fail(ChannelError.eof) }
        waiting.removeAll()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// Awaits `future`, failing with `TestTimeout` at the deadline (which bounds a failure only).
func awaitFuture<Value: Sendable>(_ future: EventLoopFuture<Value>, timeout: Duration, what: String) async throws -> Value {
    let eventLoop = future.eventLoop
    let result = eventLoop.makePromise(of: Value.self)
    let done = NIOLoopBoundBox.makeBoxSendingValue(false, eventLoop: eventLoop)
    let timer = eventLoop.scheduleTask(in: TimeAmount.nanoseconds(Int64(timeout / .nanoseconds(1)))) {
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
