import Foundation
import Logging
import MockSupport

/// A stand-in for a Web Push service (RFC 8030) on one TLS port (swift-nio + NIOSSL, not the
/// relay's AsyncHTTPClient stack), speaking HTTP/2 or HTTP/1.1 as ALPN chooses:
///
/// - `POST /subscriptions` (admin) makes a subscription whose endpoint is `…/push/{id}`, and keeps
///   its private key;
/// - `POST /push/{id}` checks the push as a push service does — `Content-Encoding: aes128gcm`, a
///   `TTL`, VAPID (RFC 8292: an ES256 JWT for this origin, signed by `k`), at most 4,096 bytes —
///   decrypts it with the subscription's key (RFC 8291), records it and answers 201 with a
///   `Location`;
/// - faults (`WebPushMockFaults`): 404 / 410 for marked subscriptions, 413, 429 with Retry-After,
///   500, 503, a delay, silent connections.
public final class WebPushMockServer: Sendable {
    public let configuration: WebPushMockConfiguration
    private let core: WebPushMockCore
    private let host: MockServerHost<WebPushMockState>

    public init(configuration: WebPushMockConfiguration, logger: Logger = Logger(label: "WebPushMock")) throws(WebPushMockError) {
        self.configuration = configuration
        core = try WebPushMockCore(configuration: configuration, logger: logger)
        host = MockServerHost(shared: core.shared)
    }

    public var port: Int { host.port }

    public var adminPort: Int? { host.adminPort }

    /// `https://host:port`: the subscriptions' endpoints start with it.
    public var origin: String { "https://\(configuration.host):\(port)" }

    public var applicationProtocols: [String] { configuration.http1Only ? ["http/1.1"] : ["h2", "http/1.1"] }

    public func start() async throws {
        let running = try await host.start(
            applicationProtocols: applicationProtocols, admin: WebPushMockAdminAPI.routes(core: core) { [self] in origin },
            responder: core)
        core.logger.info("Web Push mock listening", metadata: ["port": "\(running.port)"])
    }

    public func shutdown() async throws {
        try await host.shutdown()
    }

    /// A new subscription: the browser's `toJSON()` fields and the private key behind them.
    public func subscribe() -> (id: String, endpoint: String, p256dh: String, auth: String, privateKey: String) {
        let made = core.subscribe(origin: origin)
        return (made.id, made.subscription.endpoint, made.subscription.keys.p256dh, made.subscription.keys.auth, made.privateKey)
    }

    public var messages: [RecordedPush] { core.records }

    public func waitForMessages(count: Int, timeout: Duration) async throws -> [RecordedPush] {
        try await core.shared.waitForRecords(count: count, of: "pushes", timeout: timeout)
    }

    public var stats: WebPushMockStats { core.stats }

    public func arm(_ faults: WebPushMockFaults) { core.arm(faults) }

    public func clearFaults() { core.clearFaults() }

    public func reset() { core.reset() }
}
