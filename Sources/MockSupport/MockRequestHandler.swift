import NIOCore
import NIOHTTP1

/// Serves one HTTP/2 stream (behind `HTTP2FramePayloadToHTTP1ServerCodec`) or one HTTP/1.1
/// connection (behind NIO's server pipeline, which hands it one request at a time) for a
/// request-level mock: gathers each request, asks the responder, and writes its answer (after the
/// answer's delay), closes the connection or silences it.
package final class MockRequestHandler<Responder: MockResponder>: ChannelInboundHandler {
    package typealias InboundIn = HTTPServerRequestPart
    package typealias OutboundOut = HTTPServerResponsePart

    /// Larger bodies are dropped unread and the request marked (a push is at most a few KB).
    package static var maximumBody: Int { 1 << 20 }

    private let responder: Responder
    private let connectionID: Int
    private let httpVersion: MockHTTPPipeline.Version
    private var gatherer = RequestGatherer(maximumBody: MockRequestHandler.maximumBody)
    private var scheduledAnswer: Scheduled<Void>?

    package init(responder: Responder, connectionID: Int, httpVersion: MockHTTPPipeline.Version) {
        self.responder = responder
        self.connectionID = connectionID
        self.httpVersion = httpVersion
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let gathered = gatherer.take(unwrapInboundIn(data)) else { return }
        let head = gathered.head
        let request = MockRequest(
            head: head, body: gathered.body, bodyTooLarge: gathered.bodyTooLarge, connectionID: connectionID,
            httpVersion: httpVersion)
        switch responder.respond(to: request) {
        case .silence:
            ConnectionSilencer.silence(context.channel)
        case .dropConnection:
            (context.channel.parent ?? context.channel).close(mode: .all, promise: nil)
        case .answer(let answer, nil):
            write(answer, for: head, context: context)
        case .answer(let answer, let delay?):
            scheduledAnswer = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(delay))) {
                self.scheduledAnswer = nil
                self.write(answer, for: head, context: context)
            }
        }
    }

    private func write(_ answer: Responder.Answer, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        responder.answered(answer)
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: Responder.Answer.contentType)
        headers.add(name: "content-length", value: String(answer.body.count))
        if let retryAfter = answer.retryAfterSeconds { headers.add(name: "retry-after", value: String(retryAfter)) }
        if let location = answer.location { headers.add(name: "location", value: location) }
        for header in answer.extraHeaders { headers.add(name: header.name, value: header.value) }
        let closing = httpVersion == .http1 && !request.isKeepAlive
        if closing { headers.add(name: "connection", value: "close") }
        let version = httpVersion == .h2 ? HTTPVersion.http2 : request.version
        let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: answer.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        // No body part for an empty body: over HTTP/2 it would be an empty DATA frame, and a client
        // seeing two in a row (two streams' answers) closes the connection as a denial of service
        // (NIO's `ExcessiveEmptyDataFrames`) — Web Push's 201 has no body.
        if !answer.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))), promise: nil)
        }
        let done = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: done)
        if closing {
            done.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        cancelScheduledAnswer()
    }

    package func channelInactive(context: ChannelHandlerContext) {
        cancelScheduledAnswer()
        context.fireChannelInactive()
    }

    private func cancelScheduledAnswer() {
        scheduledAnswer?.cancel()
        scheduledAnswer = nil
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

// Bound to its channel's event loop, like every channel handler.
@available(*, unavailable)
extension MockRequestHandler: Sendable {}
