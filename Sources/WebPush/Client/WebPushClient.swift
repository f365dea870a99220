import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import NIOSSL
import PooledHTTP
import Synchronization

/// Posts encrypted messages to subscriptions' push services (RFC 8030 §5): one pooled client for
/// every origin (AsyncHTTPClient keeps a pool per host: HTTP/2 where the push service offers it,
/// HTTP/1.1 otherwise), VAPID per origin (`VAPIDAuthorization`), RFC 8291 encryption per message.
public final class WebPushClient: Sendable {
    public let configuration: WebPushClientConfiguration
    private let pool: PooledHTTPClient
    private let authorization: VAPIDAuthorization
    private let message: DeclarativeMessage
    private let inFlight = Atomic<Int>(0)
    /// Unix ms.
    private let clock: @Sendable () -> Int64

    /// Largest answer read (push services answer with an empty body or a short error).
    static let answerLimit = 16 * 1024

    public init(
        configuration: WebPushClientConfiguration, clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
    ) throws(WebPushError) {
        self.configuration = configuration
        self.clock = clock
        let tls: TLSConfiguration
        do {
            tls = try .pooledClient(trustingOnly: configuration.caFile)
        } catch {
            throw .setup(error.description)
        }
        pool = PooledHTTPClient(
            .init(
                tls: tls, connectTimeout: configuration.connectTimeout, connectionsPerHost: configuration.connections,
                liveness: configuration.liveness, logger: configuration.logger))
        authorization = VAPIDAuthorization(key: configuration.vapidKey, subject: configuration.subject)
        message = DeclarativeMessage(navigateTemplate: configuration.navigateTemplate)
    }

    /// Encrypts the message built from `payload` (the member's notification payload) for the
    /// subscription `token` carries and posts it, living `ttlSeconds` at the push service.
    public func send(
        token: String, payload: [UInt8], urgent: Bool, ttlSeconds: Int64, timeout: Duration
    ) async throws(WebPushError) -> WebPushAnswer {
        let subscription: WebPushSubscription
        do {
            subscription = try WebPushSubscription(token: token)
        } catch {
            return .invalidSubscription("\(error)")
        }
        let now = clock()
        if let expires = subscription.expiresAtMs, expires <= now { return .expired }
        guard configuration.allowlist.admits(subscription.endpoint) else { return .endpointNotAllowed(origin: subscription.origin) }
        guard let rendered = message.render(notificationPayload: payload, maximumBytes: MessageEncryption.maximumPlaintextBytes) else {
            return .tooLarge
        }
        var request = HTTPClientRequest(url: subscription.endpoint.absoluteString)
        request.method = .POST
        do {
            let body = try MessageEncryption.encrypt(rendered.json, p256dh: subscription.p256dh, auth: subscription.auth)
            request.headers.add(name: "authorization", value: try authorization.header(origin: subscription.origin, now: now / 1000))
            request.body = .bytes(ByteBuffer(bytes: body))
        } catch {
            throw .setup("cannot encrypt or sign: \(error)")
        }
        request.headers.add(name: "content-encoding", value: "aes128gcm")
        request.headers.add(name: "content-type", value: "application/octet-stream")
        request.headers.add(name: "ttl", value: String(max(0, ttlSeconds)))
        request.headers.add(name: "urgency", value: urgent ? "high" : "normal")
        if !rendered.channel.isEmpty { request.headers.add(name: "topic", value: Self.topic(channel: rendered.channel)) }
        return try await post(request, timeout: timeout)
    }

    /// RFC 8030 §5.4: at most 32 characters of base64url. A channel's newer undelivered push
    /// replaces its older one at the push service.
    static func topic(channel: String) -> String {
        String(Base64URL.encode(SHA256.hash(data: Data(channel.utf8))).prefix(32))
    }

    private func post(_ request: HTTPClientRequest, timeout: Duration) async throws(WebPushError) -> WebPushAnswer {
        inFlight.add(1, ordering: .relaxed)
        defer { inFlight.subtract(1, ordering: .relaxed) }
        do {
            let response = try await pool.http.execute(request, timeout: .nanoseconds(timeout.nanoseconds))
            let answer = try await response.body.collect(upTo: Self.answerLimit)
            let text = String(decoding: answer.readableBytesView.prefix(300), as: UTF8.self)
            return .answered(
                status: Int(response.status.code), location: response.headers.first(name: "location"),
                retryAfter: response.headers.first(name: "retry-after").flatMap(Int64.init).map { .seconds($0) },
                text: text.isEmpty ? nil : text)
        } catch is CancellationError {
            throw .shutdown
        } catch let error as HTTPClientError where error == .alreadyShutdown {
            throw .shutdown
        } catch {
            throw .transport("\(error)")
        }
    }

    /// Requests on the wire.
    public var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }

    /// HTTP/2 connections closed because they stopped answering.
    public var connectionsReplaced: Int { pool.connectionsReplaced }

    public func shutdown() async {
        await pool.shutdown()
    }
}

public enum WebPushError: Error, Sendable, CustomStringConvertible {
    /// No answer (refused, reset, timed out): retried.
    case transport(String)
    /// The client's own material (CA file, key) failed.
    case setup(String)
    case shutdown

    public var description: String {
        switch self {
        case .transport(let why): "no answer from the push service: \(why)"
        case .setup(let why): "web push: \(why)"
        case .shutdown: "the Web Push client is shut down"
        }
    }
}
