import Foundation
import MockSupport
import NIOCore
import NIOHTTP1

/// One HTTP/2 stream (behind `HTTP2FramePayloadToHTTP1ServerCodec`) or one HTTP/1.1 connection
/// (behind NIO's server pipeline, which hands it one request at a time): gathers a request, routes it
/// to the token endpoint or `messages:send`, and writes Huawei's answer, after the armed delay if any.
final class HMSRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Larger bodies are refused unread (a message is at most a few KB).
    static let maximumBody = 1 << 20
    static let tokenPath = "/oauth2/v3/token"

    private let core: HMSMockCore
    private let connectionID: Int
    private let httpVersion: RequestContext.HTTPVersion
    private var gatherer = RequestGatherer(maximumBody: HMSRequestHandler.maximumBody)
    private var scheduledAnswer: Scheduled<Void>?

    init(core: HMSMockCore, connectionID: Int, httpVersion: RequestContext.HTTPVersion) {
        self.core = core
        self.connectionID = connectionID
        self.httpVersion = httpVersion
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let request = gatherer.take(unwrapInboundIn(data)) else { return }
        if core.takeSilence() {
            ConnectionSilencer.silence(context.channel)
            return
        }
        let delay = core.requestReceived(on: httpVersion)
        let answer = route(request)
        guard let delay else {
            write(answer, for: request.head, context: context)
            return
        }
        scheduledAnswer = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(delay))) {
            self.scheduledAnswer = nil
            self.write(answer, for: request.head, context: context)
        }
    }

    private func route(_ request: RequestGatherer.Request) -> HMSMockAnswer {
        let head = request.head
        let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
        if path == Self.tokenPath {
            guard head.method == .POST else { return .methodNotAllowed(path) }
            return core.issueToken(body: request.body)
        }
        guard let appID = Self.sendAppID(path) else { return .notFound(path) }
        guard head.method == .POST else { return .methodNotAllowed(path) }
        if request.bodyTooLarge { return .result(.messageTooLarge, requestID: core.makeRequestID()) }
        var headers: [String: String] = [:]
        for name in ["content-type", "user-agent"] {
            if let value = head.headers.first(name: name) { headers[name] = value }
        }
        let context = RequestContext(connectionID: connectionID, httpVersion: httpVersion, headers: headers)
        return core.send(appID: appID, authorization: head.headers.first(name: "authorization"), body: request.body, context: context)
    }

    /// `/v1/{appId}/messages:send` → the app id.
    static func sendAppID(_ path: String) -> String? {
        let prefix = "/v1/"
        let suffix = "/messages:send"
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.count > prefix.count + suffix.count else { return nil }
        let appID = path.dropFirst(prefix.count).dropLast(suffix.count)
        guard !appID.contains("/") else { return nil }
        return String(appID).removingPercentEncoding ?? String(appID)
    }

    private func write(_ answer: HMSMockAnswer, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        core.answered(answer)
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/json;charset=UTF-8")
        headers.add(name: "content-length", value: String(answer.body.count))
        if let retryAfter = answer.retryAfterSeconds { headers.add(name: "retry-after", value: String(retryAfter)) }
        let closing = httpVersion == .http1 && !request.isKeepAlive
        if closing { headers.add(name: "connection", value: "close") }
        let version = httpVersion == .h2 ? HTTPVersion.http2 : request.version
        let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: answer.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))), promise: nil)
        let done = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: done)
        if closing {
            done.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        scheduledAnswer?.cancel()
        scheduledAnswer = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        scheduledAnswer?.cancel()
        scheduledAnswer = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
