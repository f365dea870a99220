import Foundation
import Logging
import MockSupport
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// A stand-in for FCM HTTP v1 and Google's OAuth token endpoint on one HTTP/2 + TLS port
/// (swift-nio-http2 + NIOSSL, not the relay's nghttp2 transport, so each checks the other):
///
/// - `POST /token` exchanges a service account's RS256 assertion for a bearer access token;
/// - `POST /v1/projects/{project}/messages:send` takes a valid token, validates the message like
///   Google (one token, string data within 4,096 bytes, Android options), records it and answers
///   its name, or Google's error body (`UNREGISTERED`, `INVALID_ARGUMENT`, `UNAUTHENTICATED`, …);
/// - faults (`FCMMockFaults`): 429 with Retry-After, 503, 500, dropped connections, token endpoint
///   failures, access tokens revoked early (`expireAccessTokens`).
///
/// ```swift
/// let server = try FCMMockServer(configuration: .init(tlsCertificatePath: "certs/dev/server.pem",
///     tlsKeyPath: "certs/dev/server.key", serviceAccountPath: "certs/dev/fcm-service-account.json"))
/// try await server.start()
/// let sent = try await server.waitForMessages(count: 1, timeout: .seconds(5))
/// ```
public final class FCMMockServer: Sendable {
    public let configuration: FCMMockConfiguration
    private let core: FCMMockCore
    private let lifecycle = ServerLifecycle<Running>()

    private struct Running {
        let group: MultiThreadedEventLoopGroup
        let serverChannel: any Channel
        let adminChannel: (any Channel)?
        let port: Int
        let adminPort: Int?
    }

    /// Reads the service account (its public key) and opens the record file.
    public init(configuration: FCMMockConfiguration, logger: Logger = Logger(label: "FCMMock")) throws(FCMMockError) {
        self.configuration = configuration
        core = try FCMMockCore(configuration: configuration, logger: logger)
    }

    /// The bound TLS port once started (0 before).
    public var port: Int {
        lifecycle.running?.port ?? 0
    }

    public var adminPort: Int? {
        lifecycle.running?.adminPort
    }

    /// The Firebase project the mock serves (the service account's).
    public var projectID: String { core.verifier.projectID }

    public func start() async throws {
        let running = try await lifecycle.start(alreadyStarted: FCMMockError.alreadyStarted, stopped: FCMMockError.shutDown) {
            try await bind()
        } release: { running in
            try? await Self.release(running, connections: [])
        }
        core.logger.info(
            "FCM mock listening",
            metadata: ["port": "\(running.port)", "adminPort": "\(running.adminPort.map(String.init) ?? "none")"])
    }

    private func bind() async throws -> Running {
        let sslContext = try Self.sslContext(configuration)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.eventLoopThreads))
        do {
            let core = core
            let maxStreams = configuration.maxConcurrentStreams
            let serverChannel = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 1024)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let id = core.connectionAccepted(channel)
                        channel.closeFuture.whenComplete { _ in core.connectionClosed(id: id) }
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                        _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
                            mode: .server, connectionConfiguration: Self.connectionConfiguration(maxStreams: maxStreams),
                            streamConfiguration: Self.streamConfiguration
                        ) { stream in
                            stream.eventLoop.makeCompletedFuture {
                                try stream.pipeline.syncOperations.addHandlers([
                                    HTTP2FramePayloadToHTTP1ServerCodec(), FCMStreamHandler(core: core, connectionID: id),
                                ])
                            }
                        }
                    }
                }
                .bind(host: configuration.host, port: configuration.port)
                .get()
            let adminChannel = try await AdminHTTPHandler.bind(
                group: group, port: configuration.adminPort, closingOnFailure: serverChannel,
                respond: FCMMockAdminAPI.routes(core: core).respond)
            return Running(
                group: group, serverChannel: serverChannel, adminChannel: adminChannel,
                port: serverChannel.localAddress?.port ?? 0, adminPort: adminChannel?.localAddress?.port)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private static func sslContext(_ configuration: FCMMockConfiguration) throws -> NIOSSLContext {
        do {
            let certificates = try NIOSSLCertificate.fromPEMFile(configuration.tlsCertificatePath)
            let key = try NIOSSLPrivateKey(file: configuration.tlsKeyPath, format: .pem)
            var tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: certificates.map { .certificate($0) }, privateKey: .privateKey(key))
            tls.minimumTLSVersion = .tlsv12
            tls.shutdownTimeout = .seconds(1)
            tls.applicationProtocols = ["h2"]
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw FCMMockError.invalidTLSMaterial(path: configuration.tlsCertificatePath, detail: "\(error)")
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

    /// Every accepted message so far (since start or the last `reset()`), in order.
    public var messages: [RecordedMessage] { core.messages }

    /// Waits until at least `count` messages are recorded and returns them all.
    public func waitForMessages(count: Int, timeout: Duration) async throws -> [RecordedMessage] {
        try await core.waitForMessages(count: count, timeout: timeout)
    }

    public var stats: FCMMockStats { core.stats }

    /// Adds `faults` to what is armed (see `FCMMockFaults`).
    public func arm(_ faults: FCMMockFaults) { core.arm(faults) }

    public func clearFaults() { core.clearFaults() }

    /// What is still armed.
    public var armedFaults: FCMMockFaults { core.armedFaults }

    /// From now on these tokens are answered 404 `UNREGISTERED`.
    public func markUnregistered(_ tokens: [String]) { core.markUnregistered(tokens) }

    /// Every access token issued so far is answered 401 `UNAUTHENTICATED` from now on.
    public func expireAccessTokens() { core.expireAccessTokens() }

    /// Forgets messages, faults, unregistered tokens and counters.
    public func reset() { core.reset() }
}
