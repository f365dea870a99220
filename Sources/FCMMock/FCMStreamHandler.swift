import Foundation
import MockSupport
import NIOCore
import NIOHTTP1

/// One HTTP/2 stream (behind `HTTP2FramePayloadToHTTP1ServerCodec`): gathers the request, routes
/// it to the token endpoint or `messages:send`, and writes Google's answer.
final class FCMStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Larger bodies are refused (a message is at most a few KB).
    static let maximumBody = 1 << 20

    private let core: FCMMockCore
    private let connectionID: Int
    private var gatherer = RequestGatherer(maximumBody: FCMStreamHandler.maximumBody)

    init(core: FCMMockCore, connectionID: Int) {
        self.core = core
        self.connectionID = connectionID
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let request = gatherer.take(unwrapInboundIn(data)) else { return }
        if core.takeSilence() {
            ConnectionSilencer.silence(context.channel)
            return
        }
        respond(to: request, context: context)
    }

    private func respond(to request: RequestGatherer.Request, context: ChannelHandlerContext) {
        let (head, body) = (request.head, request.body)
        let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
        let answer: FCMMockAnswer
        if request.bodyTooLarge {
            answer = .fcmError(status: 413, apiStatus: "INVALID_ARGUMENT", message: "Request payload size exceeds the limit.")
        } else if path == "/token" {
            answer =
                head.method == .POST
                ? core.exchangeToken(body: body) : .oauthError(status: 405, "invalid_request", "The token endpoint takes POST.")
        } else if let project = Self.sendProject(path) {
            guard head.method == .POST else {
                write(.fcmError(status: 405, apiStatus: "INVALID_ARGUMENT", message: "messages:send takes POST."), context: context)
                return
            }
            switch core.send(
                project: project, authorization: head.headers.first(name: "authorization"), body: body, connectionID: connectionID)
            {
            case .answer(let sent): answer = sent
            case .dropConnection:
                // Like a front end going away: the stream's whole connection closes unanswered.
                (context.channel.parent ?? context.channel).close(mode: .all, promise: nil)
                return
            }
        } else {
            answer = .notFound(path)
        }
        write(answer, context: context)
    }

    /// `/v1/projects/{project}/messages:send` → the project.
    static func sendProject(_ path: String) -> String? {
        let prefix = "/v1/projects/"
        let suffix = "/messages:send"
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.count > prefix.count + suffix.count else { return nil }
        let project = path.dropFirst(prefix.count).dropLast(suffix.count)
        guard !project.contains("/") else { return nil }
        return String(project).removingPercentEncoding ?? String(project)
    }

    private func write(_ answer: FCMMockAnswer, context: ChannelHandlerContext) {
        core.answered(answer.status)
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/json; charset=UTF-8")
        headers.add(name: "content-length", value: String(answer.body.count))
        if let retryAfter = answer.retryAfterSeconds { headers.add(name: "retry-after", value: String(retryAfter)) }
        let head = HTTPResponseHead(
            version: .http2, status: HTTPResponseStatus(statusCode: answer.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
