import NIOCore

/// First in every mock connection's pipeline, next to the socket: once told to, the connection goes
/// silent as a frozen server or a middlebox that lost its state would — it reads nothing more and
/// sends nothing more (no answer, no PING ACK, no TLS alert), and stays open until the client
/// closes it. The `silent_connections` / `silentConnection` faults use it; a client must notice
/// by itself and dial another connection.
package final class ConnectionSilencer: ChannelDuplexHandler {
    package typealias InboundIn = NIOAny
    package typealias OutboundIn = NIOAny

    private var silent = false

    package init() {}

    /// Silences the connection of `channel`: the TCP connection itself, or the connection an
    /// HTTP/2 stream belongs to (its parent, on the same event loop). An accepted connection's own
    /// parent is the listener, so the connection is tried first.
    package static func silence(_ channel: any Channel) {
        channel.eventLoop.execute {
            if let silencer = try? channel.pipeline.syncOperations.handler(type: ConnectionSilencer.self) {
                silencer.silent = true
            } else if let parent = channel.parent, parent.eventLoop.inEventLoop {
                try? parent.pipeline.syncOperations.handler(type: ConnectionSilencer.self).silent = true
            }
        }
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !silent else { return }
        context.fireChannelRead(data)
    }

    package func read(context: ChannelHandlerContext) {
        guard !silent else { return }
        context.read()
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !silent else {
            // Taken and never sent: nothing reaches the client, and nothing upstream fails.
            promise?.succeed()
            return
        }
        context.write(data, promise: promise)
    }

    package func flush(context: ChannelHandlerContext) {
        guard !silent else { return }
        context.flush()
    }
}

// Bound to its channel's event loop, like every channel handler.
@available(*, unavailable)
extension ConnectionSilencer: Sendable {}
