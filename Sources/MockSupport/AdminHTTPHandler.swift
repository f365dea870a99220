import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Serves a mock's admin API over HTTP/1.1: gathers a request, hands it to `respond`, writes the
/// answer. Shared by the mocks, whose admin routes differ but whose plumbing does not.
package final class AdminHTTPHandler: ChannelInboundHandler {
    package typealias InboundIn = HTTPServerRequestPart
    package typealias OutboundOut = HTTPServerResponsePart
    package typealias Responder = @Sendable (_ method: HTTPMethod, _ uri: String, _ body: Data) -> AdminResponse

    /// Admin bodies are small JSON objects; anything bigger is a mistake.
    private static let maximumBody = 1 << 20

    private let respond: Responder
    private var gatherer = RequestGatherer(maximumBody: AdminHTTPHandler.maximumBody)

    package init(respond: @escaping Responder) {
        self.respond = respond
    }

    /// Listens on 127.0.0.1:`port` (0 = ephemeral) and serves `respond` there.
    package static func bind(
        group: any EventLoopGroup, port: Int, respond: @escaping Responder
    ) async throws -> any Channel {
        try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(AdminHTTPHandler(respond: respond))
                }
            }
            .bind(host: "127.0.0.1", port: port)
            .get()
    }

    /// The admin listener when `port` is set (nil otherwise). `server`, the mock's own listener,
    /// is already bound: if the admin port cannot be bound it is closed before the error is thrown.
    package static func bind(
        group: any EventLoopGroup, port: Int?, closingOnFailure server: any Channel, respond: @escaping Responder
    ) async throws -> (any Channel)? {
        guard let port else { return nil }
        do {
            return try await bind(group: group, port: port, respond: respond)
        } catch {
            try? await server.close()
            throw error
        }
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let request = self.gatherer.take(self.unwrapInboundIn(data)) else { return }
        let head = request.head
        self.write(self.respond(head.method, head.uri, request.body), for: head, context: context)
    }

    private func write(_ response: AdminResponse, for request: HTTPRequestHead, context: ChannelHandlerContext) {
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

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// An admin answer: status and optional JSON body.
package struct AdminResponse: Sendable {
    package let status: HTTPResponseStatus
    package let body: Data?

    package init(status: HTTPResponseStatus, body: Data?) {
        self.status = status
        self.body = body
    }

    package static let noContent = AdminResponse(status: .noContent, body: nil)

    package static func json(_ value: some Encodable, status: HTTPResponseStatus = .ok) -> AdminResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return AdminResponse(status: status, body: try encoder.encode(value))
        } catch {
            return .error(.internalServerError, "cannot encode answer: \(error)")
        }
    }

    package static func error(_ status: HTTPResponseStatus, _ message: String) -> AdminResponse {
        .json(["error": message], status: status)
    }
}
