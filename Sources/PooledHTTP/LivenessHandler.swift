import ConnectionLiveness
import Logging
import NIOCore
import NIOHTTP2

/// Keeps one AsyncHTTPClient HTTP/2 connection honest (`ConnectionLiveness` decides): PINGs it
/// when nothing arrives, closes it when a PING goes unanswered, when requests in a row end without
/// an answer, or on a connection-level protocol error. Closing is the whole remedy: AsyncHTTPClient
/// fails the connection's streams (the callers retry them) and dials a new connection for what
/// waits in its pool.
///
/// Added last on the connection's channel (`PooledHTTPClient`), where NIO passes on the frames of
/// stream 0, the streams' open and close events, each read's completion and the errors.
final class LivenessHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTP2Frame
    typealias InboundOut = HTTP2Frame
    typealias OutboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// How often the connection is checked: a small fraction of the shortest interval.
    static let checkInterval = TimeAmount.milliseconds(250)

    private var liveness: ConnectionLiveness
    /// The liveness clock's zero: the event loop's time when the handler was added (virtual on an
    /// embedded loop, which tests advance).
    private var origin = NIODeadline.uptimeNanoseconds(0)
    private let logger: Logger
    private let closed: @Sendable (String) -> Void
    private var timer: Scheduled<Void>?

    init(settings: LivenessSettings, logger: Logger, closed: @escaping @Sendable (String) -> Void) {
        liveness = ConnectionLiveness(settings: settings, now: .zero)
        self.logger = logger
        self.closed = closed
    }

    func handlerAdded(context: ChannelHandlerContext) {
        origin = context.eventLoop.now
        scheduleCheck(context: context)
    }

    private func scheduleCheck(context: ChannelHandlerContext) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: Self.checkInterval) { [self] in
            timer = nil
            apply(liveness.check(now: now(context)), context: context)
            if context.channel.isActive { scheduleCheck(context: context) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .ping(_, ack: true) = unwrapInboundIn(data).payload {
            liveness.pingAnswered(now: now(context))
        }
        context.fireChannelRead(data)
    }

    /// Every socket read ends here, whichever stream its frames were for: the server is talking.
    func channelReadComplete(context: ChannelHandlerContext) {
        liveness.heard(now: now(context))
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is NIOHTTP2StreamCreatedEvent:
            liveness.requestStarted()
        case let closed as StreamClosedEvent:
            // CANCEL is the client giving up on a stream (its deadline); any other ending means
            // the server dealt with it.
            apply(liveness.requestEnded(answered: closed.reason != .cancel), context: context)
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !(error is NIOHTTP2Errors.StreamError) {
            apply(liveness.connectionError("\(error)"), context: context)
        }
        context.fireErrorCaught(error)
    }

    private func now(_ context: ChannelHandlerContext) -> Duration {
        .nanoseconds(Int64(context.eventLoop.now.uptimeNanoseconds) - Int64(origin.uptimeNanoseconds))
    }

    private func apply(_ action: ConnectionLiveness.Action, context: ChannelHandlerContext) {
        switch action {
        case .none:
            return
        case .sendPing:
            let ping = HTTP2Frame(streamID: .rootStream, payload: .ping(HTTP2PingData(withInteger: .random(in: .min ... .max)), ack: false))
            context.writeAndFlush(wrapOutboundOut(ping), promise: nil)
        case .close(let reason):
            logger.notice("connection replaced", metadata: ["reason": "\(reason)"])
            closed(reason)
            timer?.cancel()
            timer = nil
            context.close(promise: nil)
        }
    }
}

// Bound to its channel's event loop, like every channel handler.
@available(*, unavailable)
extension LivenessHandler: Sendable {}
