import Foundation
import NIOCore
import NIOHTTP1

/// Serves ``APNsMockAdminAPI`` over HTTP/1.1: gathers a request, routes it, writes the answer.
final class AdminHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Admin bodies are small JSON objects; anything bigger is a mistake.
    private static let maximumBody = 1 << 20

    private let core: MockServerCore
    private var head: HTTPRequestHead?
    private var body = Data()

    init(core: MockServerCore) {
        self.core = core
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            self.body = Data()
        case .body(let chunk):
            if self.body.count + chunk.readableBytes <= Self.maximumBody {
                self.body.append(contentsOf: chunk.readableBytesView)
            }
        case .end:
            guard let head = self.head else { return }
            self.head = nil
            let response = APNsMockAdminAPI.respond(method: head.method, uri: head.uri, body: self.body, core: self.core)
            self.write(response, for: head, context: context)
        }
    }

    private func write(_ response: APNsMockAdminAPI.Response, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "content-length", value: String(response.body?.count ?? 0))
        if response.body != nil { headers.add(name: "content-type", value: "application/json") }
        if !request.isKeepAlive { headers.add(name: "connection", value: "close") }
        let head = HTTPResponseHead(version: request.version, status: response.status, headers: headers)
        context.write(self.wrapOutboundOut(.head(head)), promise: nil)
        if let body = response.body {
            context.write(self.wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let done = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: done)
        if !request.isKeepAlive {
            done.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
