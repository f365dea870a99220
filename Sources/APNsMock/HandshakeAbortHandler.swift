import NIOCore

/// Closes the connection as soon as it is active: a `tlsHandshakeFailure` fault.
final class HandshakeAbortHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny

    func channelActive(context: ChannelHandlerContext) {
        context.close(promise: nil)
    }
}
