import MockSupport
import NIOCore
import NIOHTTP2
import NIOSSL
import NIOTLS

/// Sits behind the TLS handler until the handshake is done, counts failed handshakes, then puts
/// the HTTP/2 handler and ``APNsMockConnectionHandler`` in its place. Waiting for the handshake
/// lets the connection's first SETTINGS depend on whether a client certificate was presented.
final class TLSHandshakeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let core: MockServerCore
    private let resources: ServingResources
    private let connectionID: Int
    private var settled = false

    init(core: MockServerCore, resources: ServingResources, connectionID: Int) {
        self.core = core
        self.resources = resources
        self.connectionID = connectionID
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case TLSUserEvent.handshakeCompleted = event, !self.settled else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        self.settled = true
        do {
            try self.installHTTP2(context: context)
        } catch {
            self.core.logger.error("cannot set up HTTP/2", metadata: ["error": "\(error)"])
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !self.settled {
            self.settled = true
            self.core.tlsHandshakeFailed()
            self.core.logger.debug(
                "TLS handshake failed",
                metadata: ["connection": "\(self.connectionID)", "error": "\(error)"]
            )
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !self.settled {
            self.settled = true
            self.core.tlsHandshakeFailed()
        }
        context.fireChannelInactive()
    }

    private func installHTTP2(context: ChannelHandlerContext) throws {
        let configuration = self.core.configuration
        let certificateAuthenticated =
            try configuration.clientCAPath != nil && context.pipeline.syncOperations.nioSSL_peerCertificate() != nil
        let warmingUp = configuration.tokenAuthWarmup && !certificateAuthenticated
        let maxStreams = self.core.maxConcurrentStreams(warmingUp: warmingUp)

        var connection = MockHTTP2Limits.connectionConfiguration(initialSettings: [
            HTTP2Setting(parameter: .maxConcurrentStreams, value: maxStreams),
            HTTP2Setting(parameter: .initialWindowSize, value: APNsMockConnectionHandler.streamWindow),
            HTTP2Setting(parameter: .maxFrameSize, value: 1 << 14),
            HTTP2Setting(parameter: .maxHeaderListSize, value: 8000),
        ])
        // Sink mode checks framing only; header-block validation costs throughput.
        let validation: NIOHTTP2Handler.ValidationState = configuration.mode == .sink ? .disabled : .enabled
        connection.headerBlockValidation = validation
        connection.contentLengthValidation = validation

        let http2 = NIOHTTP2Handler(
            mode: .server,
            frameDelegate: nil,
            connectionConfiguration: connection,
            streamConfiguration: MockHTTP2Limits.streamConfiguration
        )
        let handler = APNsMockConnectionHandler(
            core: self.core,
            resources: self.resources,
            connectionID: self.connectionID,
            certificateAuthenticated: certificateAuthenticated,
            warmingUp: warmingUp,
            initialMaxStreams: maxStreams
        )
        try context.pipeline.syncOperations.addHandlers([RawFrameInjector(), http2, handler], position: .after(self))
        self.core.logger.debug(
            "connection ready",
            metadata: [
                "connection": "\(self.connectionID)",
                "certificateAuthenticated": "\(certificateAuthenticated)",
                "maxConcurrentStreams": "\(maxStreams)",
            ]
        )
    }
}
