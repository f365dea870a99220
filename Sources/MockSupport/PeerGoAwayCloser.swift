import NIOCore
import NIOHTTP2

/// Last in a mock's HTTP/2 connection pipeline: a GOAWAY from the client with an error code means
/// the client found the connection broken, so the mock closes it, as HTTP/2 servers do
/// (RFC 9113 §5.4.1: the endpoint that sent a connection error closes; the receiver has nothing
/// left to serve on it). Before, the mocks kept such a connection open and ignored the streams a
/// client went on opening there (AsyncHTTPClient did, after a STREAM_CLOSED connection error).
/// A GOAWAY with NO_ERROR is a graceful goodbye: the streams under way finish first.
package final class PeerGoAwayCloser: ChannelInboundHandler {
    package typealias InboundIn = HTTP2Frame
    package typealias InboundOut = HTTP2Frame

    package init() {}

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .goAway(_, let errorCode, _) = unwrapInboundIn(data).payload, errorCode != .noError {
            context.close(promise: nil)
            return
        }
        context.fireChannelRead(data)
    }
}

// Bound to its channel's event loop, like every channel handler.
@available(*, unavailable)
extension PeerGoAwayCloser: Sendable {}
