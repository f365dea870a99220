import Foundation
import Logging
import MockSupport
import NIOCore
import NIOPosix
import NIOSSL

/// A stand-in for Apple's APNs provider API: HTTP/2 over TLS (swift-nio-http2 + NIOSSL), with
/// Apple's validation and provider-token rules, a fast sink mode, recording, and scripted faults.
///
/// ```swift
/// let server = APNsMockServer(configuration: .init(tlsCertificatePath: "certs/dev/server.pem",
///                                                  tlsKeyPath: "certs/dev/server.key",
///                                                  jwtKeys: ["DEVKEY1234": "certs/dev/AuthKey_DEVKEY1234.pub.pem"]))
/// try await server.start()
/// // … point a client at https://127.0.0.1:\(server.port) …
/// let sent = try await server.waitForNotifications(count: 1, timeout: .seconds(5))
/// try await server.shutdown()
/// ```
///
/// State (recordings, faults, marked tokens, counters) exists from `init`, so faults can be armed
/// before `start()`. A server starts once.
public final class APNsMockServer: Sendable {
    public let configuration: APNsMockConfiguration
    private let core: MockServerCore
    private let lifecycle = ServerLifecycle<Running>()

    private struct Running {
        let listeners: MockListeners
        let resources: ServingResources
        /// The channel management listener, when configured.
        let management: (any Channel)?
    }

    public init(configuration: APNsMockConfiguration, logger: Logger = Logger(label: "APNsMock")) {
        self.configuration = configuration
        self.core = MockServerCore(configuration: configuration, logger: logger)
    }

    /// The bound TLS port once started (0 before).
    public var port: Int {
        lifecycle.running?.listeners.port ?? 0
    }

    /// The bound channel management port once started, if one was configured.
    public var managementPort: Int? {
        lifecycle.running?.management?.localAddress?.port
    }

    /// The bound admin port once started, if an admin listener was configured.
    public var adminPort: Int? {
        lifecycle.running?.listeners.adminPort
    }

    /// Loads TLS material and keys, binds the listeners and starts serving.
    public func start() async throws {
        let running = try await lifecycle.start(alreadyStarted: APNsMockError.alreadyStarted, stopped: APNsMockError.shutDown) {
            try await bind()
        } release: { running in
            try? await Self.release(running, connections: [])
        }
        self.core.logger.info(
            "APNs mock listening",
            metadata: [
                "host": "\(self.configuration.host)", "port": "\(running.listeners.port)",
                "mode": "\(self.configuration.mode.rawValue)",
                "adminPort": "\(running.listeners.adminPort.map(String.init) ?? "none")",
            ]
        )
    }

    private func bind() async throws -> Running {
        let resources = try ServingResources(configuration: self.configuration)
        let core = self.core
        let listeners = try await MockListeners.bind(
            self.configuration, maxMessagesPerRead: 16, admin: APNsMockAdminAPI.routes(core: core)
        ) { channel in
            channel.eventLoop.makeCompletedFuture {
                try Self.initializeConnection(channel, core: core, resources: resources)
            }
        }
        do {
            var management: (any Channel)?
            if let port = self.configuration.managementPort {
                management = try await Self.bindManagement(port: port, listeners: listeners, core: core, resources: resources)
            }
            return Running(listeners: listeners, resources: resources, management: management)
        } catch {
            try? await listeners.close(connections: [], recordFile: resources.recordFile)
            throw error
        }
    }

    /// The channel management API's listener: HTTP/2 over the same TLS, one request at a time
    /// per stream (`ChannelManagementResponder`).
    private static func bindManagement(port: Int, listeners: MockListeners, core: MockServerCore, resources: ServingResources)
        async throws -> any Channel
    {
        let responder = ChannelManagementResponder(core: core, verifier: resources.verifier)
        return try await ServerBootstrap(group: listeners.group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                MockHTTPPipeline.configure(channel, tls: resources.sslContext, maxConcurrentStreams: 100, http1: false) { version in
                    MockRequestHandler(responder: responder, connectionID: 0, httpVersion: version)
                }
            }
            .bind(host: core.configuration.host, port: port).get()
    }

    private static func initializeConnection(
        _ channel: any Channel,
        core: MockServerCore,
        resources: ServingResources
    ) throws {
        let (connectionID, abortHandshake) = core.connectionAccepted(channel)
        channel.closeFuture.whenComplete { _ in core.connectionClosed(id: connectionID) }
        let pipeline = channel.pipeline.syncOperations
        if abortHandshake {
            try pipeline.addHandler(HandshakeAbortHandler())
            return
        }
        try pipeline.addHandler(ConnectionSilencer())
        try pipeline.addHandler(ConnectionAborter())
        try pipeline.addHandler(NIOSSLServerHandler(context: resources.sslContext))
        try pipeline.addHandler(TLSHandshakeGate(core: core, resources: resources, connectionID: connectionID))
    }

    /// Stops listening, closes every connection, fails pending waits and stops the threads.
    public func shutdown() async throws {
        let running = lifecycle.stop()
        let connections = self.core.shutDown()
        guard let running else { return }
        try await Self.release(running, connections: connections)
    }

    /// Closes the listeners, then `connections`, then the threads: at shutdown, or when
    /// `shutdown()` came while a start was binding (no connections then).
    private static func release(_ running: Running, connections: [any Channel]) async throws {
        try? await running.management?.close()
        try await running.listeners.close(connections: connections, recordFile: running.resources.recordFile)
    }

    // MARK: Recording

    /// Every accepted notification so far (since start or the last ``reset()``), in order.
    public var notifications: [RecordedNotification] { self.core.notifications }

    /// Waits until at least `count` notifications are recorded and returns them all; throws
    /// ``APNsMockError/timedOut(waitingFor:after:)`` at the deadline. Needs ``APNsMockConfiguration/recordInMemory``.
    public func waitForNotifications(count: Int, timeout: Duration) async throws -> [RecordedNotification] {
        try await self.core.waitForNotifications(count: count, timeout: timeout)
    }

    /// Waits until `predicate` holds for the counters (checked at every change; keep it cheap)
    /// and returns that snapshot; throws ``APNsMockError/timedOut(waitingFor:after:)`` at the deadline.
    public func waitForStats(
        timeout: Duration,
        where predicate: @escaping @Sendable (APNsMockStats) -> Bool
    ) async throws -> APNsMockStats {
        try await self.core.waitForStats(timeout: timeout, where: predicate)
    }

    /// Forgets recorded notifications, armed faults, marked tokens, cached and expired provider
    /// tokens, and zeroes the counters (the live gauges `connectionsOpen` and `streamsOpen` stay).
    /// Open connections keep their own token state.
    public func reset() {
        self.core.reset()
    }

    // MARK: Device-token state

    /// From now on `token` is answered 410 `{"reason":"Unregistered","timestamp":<at, ms>}`.
    public func markUnregistered(token: String, at date: Date) {
        self.core.markUnregistered(token: token, at: date)
    }

    /// From now on `token` is answered 400 `BadDeviceToken` (as for the other environment's tokens).
    public func markBadToken(_ token: String) {
        self.core.markBadToken(token)
    }

    /// `token` was made by an app build that talks to `environment` (a debug or TestFlight build:
    /// development): a mock playing the other environment answers it 400 `BadDeviceToken`.
    public func markEnvironment(of token: String, _ environment: APNsMockConfiguration.Environment) {
        self.core.markEnvironment(of: token, environment)
    }

    /// `token` is a Live Activity's (ActivityKit's push-to-start or update token): a push it does
    /// not take (see `LiveActivityTokenKind`) is answered 400 `BadDeviceToken`.
    public func markLiveActivityToken(_ token: String, _ kind: LiveActivityTokenKind) {
        self.core.markLiveActivityToken(token, kind)
    }

    // MARK: Stats and faults

    /// A snapshot of the counters.
    public var stats: APNsMockStats { self.core.stats }

    /// Arms `fault` (see ``APNsMockFault`` for each one's exact effect).
    public func addFault(_ fault: APNsMockFault) {
        self.core.addFault(fault)
    }

    /// Disarms every fault; a `maxConcurrentStreams` override is withdrawn with a new SETTINGS.
    public func clearFaults() {
        self.core.clearFaults()
    }

    /// The armed faults with their remaining counts.
    public var activeFaults: [APNsMockFault] { self.core.activeFaults }
}
