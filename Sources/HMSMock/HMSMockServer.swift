import Foundation
import Logging
import MockSupport
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// A stand-in for HMS Push Kit's servers on one TLS port (swift-nio + NIOSSL, not the relay's client
/// stack, so each checks the other), speaking HTTP/2 or HTTP/1.1 as ALPN chooses:
///
/// - `POST /oauth2/v3/token` exchanges the app's client id and secret for a bearer access token;
/// - `POST /v1/{appId}/messages:send` takes a valid token, validates the data message like Huawei
///   (a JSON object in `data`, 1 to 1,000 tokens, 4,096 bytes, Android options), records it per token
///   and answers Huawei's result code (80000000, 80100000 with `illegal_tokens`, 80300007, …);
/// - faults (`HMSMockFaults`): invalid tokens, 503 flow control with Retry-After, 81000001, a delay,
///   refused credentials, access tokens expired early (`expireAccessTokens`, then 80200003).
///
/// ALPN offers `h2` and `http/1.1`, or `http/1.1` alone with `http1Only`; a client that negotiates
/// nothing is served HTTP/1.1.
///
/// ```swift
/// let server = try HMSMockServer(configuration: .init(tlsCertificatePath: "certs/dev/server.pem",
///     tlsKeyPath: "certs/dev/server.key", appID: "100000001", clientSecret: "dev-secret"))
/// try await server.start()
/// let sent = try await server.waitForMessages(count: 1, timeout: .seconds(5))
/// ```
public final class HMSMockServer: Sendable {
    public let configuration: HMSMockConfiguration
    private let core: HMSMockCore
    private let lifecycle = ServerLifecycle<Running>()

    private struct Running {
        let group: MultiThreadedEventLoopGroup
        let serverChannel: any Channel
        let adminChannel: (any Channel)?
        let port: Int
        let adminPort: Int?
    }

    /// Opens the record file.
    public init(configuration: HMSMockConfiguration, logger: Logger = Logger(label: "HMSMock")) throws(HMSMockError) {
        self.configuration = configuration
        core = try HMSMockCore(configuration: configuration, logger: logger)
    }

    /// The bound TLS port once started (0 before).
    public var port: Int {
        lifecycle.running?.port ?? 0
    }

    public var adminPort: Int? {
        lifecycle.running?.adminPort
    }

    /// What ALPN offers, in order of preference.
    public var applicationProtocols: [String] {
        configuration.http1Only ? ["http/1.1"] : ["h2", "http/1.1"]
    }

    public func start() async throws {
        let running = try await lifecycle.start(alreadyStarted: HMSMockError.alreadyStarted, stopped: HMSMockError.shutDown) {
            try await bind()
        } release: { running in
            try? await Self.release(running, connections: [])
        }
        core.logger.info(
            "HMS mock listening",
            metadata: [
                "port": "\(running.port)", "adminPort": "\(running.adminPort.map(String.init) ?? "none")",
                "alpn": "\(applicationProtocols.joined(separator: ","))",
            ])
    }

    private func bind() async throws -> Running {
        let sslContext = try Self.sslContext(configuration, protocols: applicationProtocols)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.eventLoopThreads))
        do {
            let core = core
            let maxStreams = configuration.maxConcurrentStreams
            let serverChannel = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 1024)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { channel in
                    Self.initializeConnection(channel, core: core, sslContext: sslContext, maxStreams: maxStreams)
                }
                .bind(host: configuration.host, port: configuration.port)
                .get()
            let adminChannel = try await AdminHTTPHandler.bind(
                group: group, port: configuration.adminPort, closingOnFailure: serverChannel,
                respond: HMSMockAdminAPI.routes(core: core).respond)
            return Running(
                group: group, serverChannel: serverChannel, adminChannel: adminChannel,
                port: serverChannel.localAddress?.port ?? 0, adminPort: adminChannel?.localAddress?.port)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// TLS, then HTTP/2 or HTTP/1.1 as ALPN chose (`ApplicationProtocolNegotiationHandler` holds
    /// the first bytes until the pipeline is in place).
    private static func initializeConnection(
        _ channel: any Channel, core: HMSMockCore, sslContext: NIOSSLContext, maxStreams: Int
    ) -> EventLoopFuture<Void> {
        let id = core.connectionAccepted(channel)
        channel.closeFuture.whenComplete { _ in core.connectionClosed(id: id) }
        do {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return channel.configureHTTP2SecureUpgrade { channel in
            channel.eventLoop.makeCompletedFuture {
                _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
                    mode: .server, connectionConfiguration: connectionConfiguration(maxStreams: maxStreams),
                    streamConfiguration: streamConfiguration
                ) { stream in
                    stream.eventLoop.makeCompletedFuture {
                        try stream.pipeline.syncOperations.addHandlers([
                            HTTP2FramePayloadToHTTP1ServerCodec(), HMSRequestHandler(core: core, connectionID: id, httpVersion: .h2),
                        ])
                    }
                }
            }
        } http1ChannelConfigurator: { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                try channel.pipeline.syncOperations.addHandler(HMSRequestHandler(core: core, connectionID: id, httpVersion: .http1))
            }
        }
    }

    private static func sslContext(_ configuration: HMSMockConfiguration, protocols: [String]) throws -> NIOSSLContext {
        do {
            let certificates = try NIOSSLCertificate.fromPEMFile(configuration.tlsCertificatePath)
            let key = try NIOSSLPrivateKey(file: configuration.tlsKeyPath, format: .pem)
            var tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: certificates.map { .certificate($0) }, privateKey: .privateKey(key))
            tls.minimumTLSVersion = .tlsv12
            tls.shutdownTimeout = .seconds(1)
            tls.applicationProtocols = protocols
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw HMSMockError.invalidTLSMaterial(path: configuration.tlsCertificatePath, detail: "\(error)")
        }
    }

    private static func connectionConfiguration(maxStreams: Int) -> NIOHTTP2Handler.ConnectionConfiguration {
        var connection = NIOHTTP2Handler.ConnectionConfiguration()
        connection.initialSettings = [
            HTTP2Setting(parameter: .maxConcurrentStreams, value: maxStreams),
            HTTP2Setting(parameter: .maxHeaderListSize, value: 16_384),
        ]
        // A mock serves clients that reset and retry on purpose: NIO's limits for public servers
        // must not be what a test trips over.
        connection.maximumConnectionGlitches = 1_000_000
        connection.maximumRecentlyResetStreams = 10_000
        connection.controlFrameRateLimit.maximumCount = 1_000_000
        return connection
    }

    private static var streamConfiguration: NIOHTTP2Handler.StreamConfiguration {
        var stream = NIOHTTP2Handler.StreamConfiguration()
        stream.streamResetFrameRateLimit.maximumCount = 1_000_000
        stream.streamErrorRateLimit.maximumCount = 1_000_000
        return stream
    }

    /// Stops listening, closes every connection, fails pending waits and stops the threads.
    public func shutdown() async throws {
        let running = lifecycle.stop()
        let connections = core.shutDown()
        guard let running else { return }
        core.recordFile?.close()
        try await Self.release(running, connections: connections)
    }

    /// Closes the listeners, then `connections`, then the threads: at shutdown, or when
    /// `shutdown()` came while a start was binding (no connections then).
    private static func release(_ running: Running, connections: [any Channel]) async throws {
        try? await running.serverChannel.close()
        try? await running.adminChannel?.close()
        for connection in connections { try? await connection.close() }
        try await running.group.shutdownGracefully()
    }

    // MARK: Recording, faults, stats

    /// Every accepted message so far (since start or the last `reset()`), one per token, in order.
    public var messages: [RecordedMessage] { core.messages }

    /// Waits until at least `count` messages are recorded and returns them all.
    public func waitForMessages(count: Int, timeout: Duration) async throws -> [RecordedMessage] {
        try await core.waitForMessages(count: count, timeout: timeout)
    }

    public var stats: HMSMockStats { core.stats }

    /// Adds `faults` to what is armed (see `HMSMockFaults`).
    public func arm(_ faults: HMSMockFaults) { core.arm(faults) }

    /// Disarms the counted faults and the delay.
    public func clearFaults() { core.clearFaults() }

    /// What is still armed, invalid tokens included.
    public var armedFaults: HMSMockFaults { core.armedFaults }

    /// From now on these tokens are illegal: 80300007 alone, `illegal_tokens` of an 80100000 among others.
    public func markInvalid(_ tokens: [String]) { core.markInvalid(tokens) }

    /// Every access token issued so far expires now: sends with them are answered 80200003.
    public func expireAccessTokens() { core.expireAccessTokens() }

    /// Forgets messages, faults, invalid tokens and counters.
    public func reset() { core.reset() }
}
