import NIOCore

/// First handler of every connection. It does nothing itself; closing through *its* context
/// skips TLS and HTTP/2 above it, which is how `dropConnection` resets a connection abruptly.
final class ConnectionAborter: ChannelOutboundHandler, Sendable {
    typealias OutboundIn = NIOAny
}

/// Closes the connection as soon as it is active: a `tlsHandshakeFailure` fault.
final class HandshakeAbortHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny

    func channelActive(context: ChannelHandlerContext) {
        context.close(promise: nil)
    }
}
