import Foundation
import Logging
import MockSupport

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
    private let host: MockServerHost<HMSMockState>

    /// Opens the record file.
    public init(configuration: HMSMockConfiguration, logger: Logger = Logger(label: "HMSMock")) throws(HMSMockError) {
        self.configuration = configuration
        core = try HMSMockCore(configuration: configuration, logger: logger)
        host = MockServerHost(shared: core.shared)
    }

    /// The bound TLS port once started (0 before).
    public var port: Int { host.port }

    public var adminPort: Int? { host.adminPort }

    /// What ALPN offers, in order of preference.
    public var applicationProtocols: [String] {
        configuration.http1Only ? ["http/1.1"] : ["h2", "http/1.1"]
    }

    public func start() async throws {
        let running = try await host.start(
            applicationProtocols: applicationProtocols, admin: HMSMockAdminAPI.routes(core: core), responder: core)
        core.logger.info(
            "HMS mock listening",
            metadata: [
                "port": "\(running.port)", "adminPort": "\(running.adminPort.map(String.init) ?? "none")",
                "alpn": "\(applicationProtocols.joined(separator: ","))",
            ])
    }

    /// Stops listening, closes every connection, fails pending waits and stops the threads.
    public func shutdown() async throws {
        try await host.shutdown()
    }

    // MARK: Recording, faults, stats

    /// Every accepted message so far (since start or the last `reset()`), one per token, in order.
    public var messages: [RecordedMessage] { core.records }

    /// Waits until at least `count` messages are recorded and returns them all.
    public func waitForMessages(count: Int, timeout: Duration) async throws -> [RecordedMessage] {
        try await core.shared.waitForRecords(count: count, of: "messages", timeout: timeout)
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
