import Foundation
import Logging
import MockSupport

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
    private let host: MockServerHost<FCMMockState>

    /// Reads the service account (its public key) and opens the record file.
    public init(configuration: FCMMockConfiguration, logger: Logger = Logger(label: "FCMMock")) throws(FCMMockError) {
        self.configuration = configuration
        core = try FCMMockCore(configuration: configuration, logger: logger)
        host = MockServerHost(shared: core.shared)
    }

    /// The bound TLS port once started (0 before).
    public var port: Int { host.port }

    public var adminPort: Int? { host.adminPort }

    /// The Firebase project the mock serves (the service account's).
    public var projectID: String { core.verifier.projectID }

    /// HTTP/2 only, whatever ALPN said: FCM's front ends speak nothing else.
    public func start() async throws {
        let running = try await host.start(applicationProtocols: ["h2"], admin: FCMMockAdminAPI.routes(core: core), responder: core)
        core.logger.info(
            "FCM mock listening",
            metadata: ["port": "\(running.port)", "adminPort": "\(running.adminPort.map(String.init) ?? "none")"])
    }

    /// Stops listening, closes every connection, fails pending waits and stops the threads.
    public func shutdown() async throws {
        try await host.shutdown()
    }

    // MARK: Recording, faults, stats

    /// Every accepted message so far (since start or the last `reset()`), in order.
    public var messages: [RecordedMessage] { core.records }

    /// Waits until at least `count` messages are recorded and returns them all.
    public func waitForMessages(count: Int, timeout: Duration) async throws -> [RecordedMessage] {
        try await core.shared.waitForRecords(count: count, of: "messages", timeout: timeout)
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
