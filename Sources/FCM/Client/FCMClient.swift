import Foundation
import HTTP2Transport
import PushSending

/// Sends FCM HTTP v1 messages over the relay's own HTTP/2 transport (the one under every
/// provider's client), with an OAuth 2.0 access token from a service account.
///
/// The token is fetched once for all concurrent sends (`AccessTokens`, as HMS's), renewed
/// `refreshMargin` before it expires, and replaced once when FCM answers 401 to it. Everything
/// else FCM says comes back as an `FCMResponse`; `outcome` says what to do about it.
public final class FCMClient: Sendable {
    public let configuration: FCMClientConfiguration
    private let messages: HTTP2Client
    private let tokenEndpoint: HTTP2Client
    private let sendPath: String
    private let tokens: AccessTokens<FCMError>

    /// - Parameter clock: Unix seconds (tests move it to expire tokens).
    public init(
        configuration: FCMClientConfiguration, clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) throws(FCMError) {
        self.configuration = configuration
        let key: FCMSigningKey
        do {
            key = try FCMSigningKey(account: configuration.serviceAccount, source: configuration.serviceAccountSource)
        } catch {
            throw .credentials(error)
        }
        guard let tokenHost = TransportEndpoint(url: configuration.tokenURL) else {
            throw .credentials(
                .invalidServiceAccount(source: configuration.serviceAccountSource, reason: "the token URL must be an https URL"))
        }
        do {
            messages = try HTTP2Client(
                configuration: configuration.transport(to: configuration.endpoint, connections: configuration.connections, peerName: "FCM"))
            tokenEndpoint = try HTTP2Client(configuration: configuration.transport(to: tokenHost, connections: 1, peerName: "OAuth"))
        } catch {
            throw .transport(error)
        }
        sendPath = "/v1/projects/\(Self.pathSegment(configuration.projectID))/messages:send"
        let exchange = TokenExchange(configuration: configuration, key: key, endpoint: tokenEndpoint)
        tokens = AccessTokens(clock: clock) { await exchange.fetch(now: clock()) }
    }

    /// Sends one `messages:send` body (see `FCMMessage.body`) and returns FCM's answer.
    ///
    /// - Throws: `FCMError` when there is no answer, `CancellationError` when the task is cancelled.
    public func send(body: [UInt8], timeout: Duration? = nil) async throws -> FCMResponse {
        let deadline = ContinuousClock.now + (timeout ?? configuration.requestTimeout)
        var renewed = false
        while true {
            let token = try await tokens.token().get()
            let request = HTTP2Request(
                path: sendPath,
                headers: [
                    HTTP2HeaderField("content-type", "application/json; charset=UTF-8"),
                    HTTP2HeaderField("authorization", "Bearer " + token, sensitive: true),
                ], body: body)
            switch await messages.perform(request, deadline: deadline) {
            case .response(let answer, _, _):
                let response = Self.response(answer)
                if response.status == 401, response.error?.code == .unauthenticated, !renewed {
                    // Expired or revoked early: forget this token (once, however many sends saw
                    // the 401) and try again with a fresh one.
                    renewed = true
                    tokens.rejected(token)
                    continue
                }
                return response
            case .failure(let error):
                throw FCMError.transport(error)
            case .cancelled:
                throw CancellationError()
            }
        }
    }

    /// The pool to FCM right now.
    public var statistics: TransportStatistics { messages.statistics }

    public func shutdown() async {
        await messages.shutdown()
        await tokenEndpoint.shutdown()
        tokens.shutdown(failing: .transport(.shutdown))
    }

    // MARK: Parsing

    static func response(_ answer: HTTP2Response) -> FCMResponse {
        guard answer.status == 200 else {
            let retryAfter = answer.retryAfter.map { String($0.components.seconds) }
            return FCMResponse(
                status: answer.status, error: FCMErrorResponse(status: answer.status, body: Data(answer.body), retryAfter: retryAfter))
        }
        return FCMResponse(status: 200, messageName: messageName(answer.body))
    }

    /// `name` of `{"name": "projects/p/messages/0:…"}`, FCM's whole success body. Read by hand on
    /// the hot path (a JSONDecoder costs more than the rest of the answer's handling); a body of
    /// another shape, or with escapes, goes through the decoder.
    static func messageName(_ body: [UInt8]) -> String? {
        let key = Array(#""name""#.utf8)
        if let keyAt = body.indices.first(where: { body[$0...].starts(with: key) }) {
            var i = keyAt + key.count
            while i < body.count, body[i] == UInt8(ascii: " ") || body[i] == UInt8(ascii: ":") || body[i] == UInt8(ascii: "\n") { i += 1 }
            if i < body.count, body[i] == UInt8(ascii: "\"") {
                let start = i + 1
                if let end = body[start...].firstIndex(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }),
                    body[end] == UInt8(ascii: "\"")
                {
                    return String(decoding: body[start..<end], as: UTF8.self)
                }
            }
        }
        struct Sent: Decodable { var name: String? }
        return (try? JSONDecoder().decode(Sent.self, from: Data(body)))?.name
    }

    /// A project id as one path segment (Firebase ids are `[a-z0-9-]`; anything else is escaped).
    private static func pathSegment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? id
    }
}

/// One OAuth token exchange of the service account: a signed assertion posted to the token URL.
private struct TokenExchange: Sendable {
    let configuration: FCMClientConfiguration
    let key: FCMSigningKey
    let endpoint: HTTP2Client

    func fetch(now: Int64) async -> Result<AccessToken, FCMError> {
        let result = await exchange(now: now)
        if case .failure(let error) = result {
            configuration.logger.warning(
                "cannot get an FCM access token", metadata: ["account": "\(configuration.serviceAccount)", "error": "\(error)"])
        }
        return result
    }

    private func exchange(now: Int64) async -> Result<AccessToken, FCMError> {
        let body: Data
        do {
            body = try FCMAccessTokenRequest.body(account: configuration.serviceAccount, key: key, now: now)
        } catch {
            return .failure(.credentials(error))
        }
        let path = configuration.tokenURL.path.isEmpty ? "/" : configuration.tokenURL.path
        let request = HTTP2Request(
            path: path, headers: [HTTP2HeaderField("content-type", "application/x-www-form-urlencoded")], body: Array(body))
        let deadline = ContinuousClock.now + configuration.connectTimeout + configuration.requestTimeout
        switch await endpoint.perform(request, deadline: deadline) {
        case .response(let answer, _, _):
            guard answer.status == 200 else {
                return .failure(.accessTokenRefused(status: answer.status, reason: Self.oauthError(answer.body)))
            }
            guard let token = FCMAccessTokenRequest.accessToken(from: Data(answer.body), receivedAt: now) else {
                return .failure(.accessTokenRefused(status: 0, reason: "the token endpoint's answer holds no access_token"))
            }
            return .success(token)
        case .failure(let error):
            return .failure(.accessTokenRefused(status: 0, reason: "token endpoint \(endpoint.configuration.endpoint): \(error)"))
        case .cancelled:
            return .failure(.transport(.shutdown))
        }
    }

    /// `{"error": "invalid_grant", "error_description": "…"}`, cut short: it is logged.
    private static func oauthError(_ body: [UInt8]) -> String {
        struct OAuthError: Decodable {
            var error: String?
            var error_description: String?
        }
        guard let e = try? JSONDecoder().decode(OAuthError.self, from: Data(body)), let code = e.error else {
            return String(String(decoding: body.prefix(200), as: UTF8.self))
        }
        return String([code, e.error_description].compactMap(\.self).joined(separator: ": ").prefix(200))
    }
}
