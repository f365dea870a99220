import NIOCore

/// First handler of every connection. It does nothing itself; closing through *its* context
/// skips TLS and HTTP/2 above it, which is how `dropConnection` resets a connection abruptly.
final class ConnectionAborter: ChannelOutboundHandler, Sendable {
    typealias OutboundIn = NIOAny
}
