import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOSSL

/// How fcm-mock and hms-mock serve a TLS connection: HTTP/2, each stream handed as an HTTP/1-style
/// request (NIO's `HTTP2FramePayloadToHTTP1ServerCodec`) to a handler of its own; with `http1`,
/// HTTP/1.1 too when ALPN does not choose h2, its requests one after another to one handler
/// (`ApplicationProtocolNegotiationHandler` holds the first bytes until the pipeline is in place).
package enum MockHTTPPipeline {
    /// What a request came on.
    package enum Version: String, Sendable {
        case h2
        case http1 = "http/1.1"
    }

    package typealias MakeHandler = @Sendable (Version) -> any ChannelHandler

    package static func configure(
        _ channel: any Channel, tls: NIOSSLContext, maxConcurrentStreams: Int, http1: Bool,
        makeHandler: @escaping MakeHandler
    ) -> EventLoopFuture<Void> {
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionSilencer())
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        let settings = [
            HTTP2Setting(parameter: .maxConcurrentStreams, value: maxConcurrentStreams),
            HTTP2Setting(parameter: .maxHeaderListSize, value: 16_384),
        ]
        let http2: @Sendable (any Channel) -> EventLoopFuture<Void> = { channel in
            channel.eventLoop.makeCompletedFuture {
                _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
                    mode: .server, connectionConfiguration: MockHTTP2Limits.connectionConfiguration(initialSettings: settings),
                    streamConfiguration: MockHTTP2Limits.streamConfiguration
                ) { stream in
                    stream.eventLoop.makeCompletedFuture {
                        try stream.pipeline.syncOperations.addHandlers([HTTP2FramePayloadToHTTP1ServerCodec(), makeHandler(.h2)])
                    }
                }
                try channel.pipeline.syncOperations.addHandler(PeerGoAwayCloser())
            }
        }
        guard http1 else { return http2(channel) }
        return channel.configureHTTP2SecureUpgrade(h2ChannelConfigurator: http2) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                try channel.pipeline.syncOperations.addHandler(makeHandler(.http1))
            }
        }
    }
}
