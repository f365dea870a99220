import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import PooledHTTP
import PushSending
import Synchronization

/// An app's client for HMS Push Kit: OAuth 2.0 client credentials (a token fetched once and
/// refreshed before it expires, one fetch at a time; dropped when HMS says it expired) and
/// `messages:send`.
///
/// On `PooledHTTPClient` (AsyncHTTPClient), which speaks HTTP/2 when the server offers it over ALPN
/// and keeps a pool of HTTP/1.1 connections when it does not: Huawei documents HTTPS only, so either
/// must work. An HTTP/2 connection that stops answering is replaced.
/// `statistics` counts the requests each way went (the stand-in `hms-mock` offers both, and its
/// `--http1-only` the second alone).
public final class HMSClient: Sendable {
    public let configuration: HMSClientConfiguration
    private let pool: PooledHTTPClient
    private var http: HTTPClient { pool.http }
    private let tokens: AccessTokens<HMSError>
    private let counts = Mutex(Counts())
    /// Unix seconds (tests move it to expire tokens).
    private let clock: @Sendable () -> Int64

    /// Requests by the HTTP version they went over, and those on the wire.
    public struct Counts: Sendable, Hashable {
        public var http2 = 0
        public var http1 = 0
        public var inFlight = 0
    }

    /// Largest answer read (HMS's are a few hundred bytes).
    static let answerLimit = 64 * 1024

    public init(
        configuration: HMSClientConfiguration, clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) throws(HMSError) {
        self.configuration = configuration
        self.clock = clock
        let tls: TLSConfiguration
        do {
            tls = try .pooledClient(trustingOnly: configuration.caFile)
        } catch {
            throw .transport(error.description)
        }
        pool = PooledHTTPClient(
            .init(
                tls: tls, connectTimeout: configuration.connectTimeout, connectionsPerHost: configuration.connections,
                liveness: configuration.liveness, logger: configuration.logger))
        let client = pool.http
        let (tokenURL, body) = (
            configuration.tokenURL, HMSAccessTokenRequest.body(appID: configuration.appID, clientSecret: configuration.clientSecret)
        )
        let timeout = configuration.connectTimeout + configuration.requestTimeout
        tokens = AccessTokens(clock: clock) {
            await Self.exchange(client, url: tokenURL, body: body, timeout: timeout, now: clock())
        }
    }

    /// Sends one `messages:send` body (`HMSMessage.body`) and returns HMS's answer. An answer that
    /// the token expired (80200003) gets one more try with a fresh token.
    public func send(body: [UInt8], timeout: Duration? = nil) async throws(HMSError) -> HMSResponse {
        let deadline = ContinuousClock.now + (timeout ?? configuration.requestTimeout)
        var renewed = false
        while true {
            let token = try await tokens.token().get()
            let response = try await post(body, token: token, until: deadline)
            if response.code == .accessTokenExpired || response.status == 401, !renewed {
                renewed = true
                tokens.rejected(token)
                continue
            }
            return response
        }
    }

    /// A token exchange now (`push-relay check-config --probe`).
    public func checkCredentials() async throws(HMSError) {
        _ = try await tokens.token().get()
    }

    public var statistics: Counts { counts.withLock { $0 } }

    /// HTTP/2 connections closed because they stopped answering.
    public var connectionsReplaced: Int { pool.connectionsReplaced }

    public func shutdown() async {
        await pool.shutdown()
        tokens.shutdown(failing: .shutdown)
    }

    private func post(_ body: [UInt8], token: String, until deadline: ContinuousClock.Instant) async throws(HMSError) -> HMSResponse {
        var request = HTTPClientRequest(url: configuration.sendURL)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json; charset=UTF-8")
        request.headers.add(name: "authorization", value: "Bearer " + token)
        request.body = .bytes(ByteBuffer(bytes: body))
        counts.withLock { $0.inFlight += 1 }
        defer { counts.withLock { $0.inFlight -= 1 } }
        do {
            let remaining = max(.milliseconds(1), deadline - ContinuousClock.now)
            let response = try await http.execute(request, timeout: .nanoseconds(remaining.nanoseconds))
            counts.withLock { response.version.major == 2 ? ($0.http2 += 1) : ($0.http1 += 1) }
            let answer = try await response.body.collect(upTo: Self.answerLimit)
            return HMSResponse(
                status: Int(response.status.code), body: Array(answer.readableBytesView),
                retryAfter: response.headers.first(name: "retry-after").flatMap(Int64.init).map { .seconds($0) })
        } catch is CancellationError {
            throw .shutdown
        } catch let error as HTTPClientError where error == .alreadyShutdown {
            throw .shutdown
        } catch {
            throw .transport("\(error)")
        }
    }

    private static func exchange(_ http: HTTPClient, url: URL, body: [UInt8], timeout: Duration, now: Int64) async
        -> Result<AccessToken, HMSError>
    {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await http.execute(request, timeout: .nanoseconds(timeout.nanoseconds))
            let answer = Array(try await response.body.collect(upTo: answerLimit).readableBytesView)
            guard response.status == .ok else {
                return .failure(.accessTokenRefused(status: Int(response.status.code), reason: HMSAccessTokenRequest.refusal(answer)))
            }
            guard let token = HMSAccessTokenRequest.accessToken(from: answer, receivedAt: now) else {
                return .failure(.accessTokenRefused(status: 0, reason: "the token endpoint's answer holds no access_token"))
            }
            return .success(token)
        } catch {
            return .failure(.accessTokenRefused(status: 0, reason: "token endpoint \(url.host ?? "?"): \(error)"))
        }
    }
}
