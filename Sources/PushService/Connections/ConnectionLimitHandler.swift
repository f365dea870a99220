import NIOCore
import NIOHTTPTypes

/// One per HTTP connection, right after the HTTP/1 codec: asks `gate` to admit the connection
/// once it is active (closing it when refused), and reports each request head read, each
/// response written in full and the close — so the gate knows which connections are idle and
/// its count never outlives a channel (the close future fires however the channel ends).
final class ConnectionLimitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let gate: ConnectionGate
    private var id: ConnectionGate.ID?
    private var decided = false

    init(gate: ConnectionGate) {
        self.gate = gate
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Hummingbird adds the handler during child channel setup; the channel may already be
        // active, and then no channelActive follows.
        if context.channel.isActive { admit(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        admit(context: context)
    }

    private func admit(context: ChannelHandlerContext) {
        guard !decided else { return }
        decided = true
        guard let id = gate.admit(context.channel) else {
            context.close(promise: nil)
            return
        }
        self.id = id
        let gate = self.gate
        context.channel.closeFuture.whenComplete { _ in gate.closed(id) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let id, case .head = unwrapInboundIn(data) { gate.requestStarted(id) }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let id, case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        // Idle once the response has reached the socket: closing a connection whose response
        // is still queued in NIO would drop it.
        let written = promise ?? context.eventLoop.makePromise(of: Void.self)
        let gate = self.gate
        written.futureResult.whenComplete { _ in gate.responseFinished(id) }
        context.write(data, promise: written)
    }
}

// Bound to its channel's event loop, like every channel handler.
@available(*, unavailable)
extension ConnectionLimitHandler: Sendable {}
