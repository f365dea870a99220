import Foundation
import HMSMock
import Synchronization

/// Starts a mock on an ephemeral port with the dev certificate, runs `body`, shuts down; and writes
/// the requests the relay's HMS client sends.
enum HMSFixture {
    static let appID = "100000001"
    static let clientSecret = "test-client-secret-3f9a"
    /// Offered by clients that take HTTP/2 when they can (AsyncHTTPClient's order).
    static let bothProtocols = ["h2", "http/1.1"]

    /// A device token shaped like Huawei's (about 130 base64-like characters), one per `n`.
    static func deviceToken(_ n: Int) -> String {
        "IQAAAACy0kYkAAB\(n)x" + String(repeating: "q", count: 110)
    }

    static func configuration() -> HMSMockConfiguration {
        HMSMockConfiguration(
            tlsCertificatePath: DevCertificates.serverPEM, tlsKeyPath: DevCertificates.serverKey, appID: appID,
            clientSecret: clientSecret)
    }

    static func withServer<Result>(
        _ configure: (inout HMSMockConfiguration) -> Void = { _ in },
        _ body: (HMSMockServer) async throws -> Result
    ) async throws -> Result {
        var configuration = configuration()
        configure(&configuration)
        let server = try HMSMockServer(configuration: configuration)
        try await server.start()
        do {
            let result = try await body(server)
            try await server.shutdown()
            return result
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    /// `POST /oauth2/v3/token` with these form fields (percent-encoded).
    static func tokenRequest(
        clientID: String = appID, secret: String = clientSecret, grantType: String = "client_credentials"
    ) -> TestRequest {
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text }
        let form = "grant_type=\(encoded(grantType))&client_id=\(encoded(clientID))&client_secret=\(encoded(secret))"
        return TestRequest(
            path: "/oauth2/v3/token", headers: [("content-type", "application/x-www-form-urlencoded")], body: Data(form.utf8))
    }

    /// A fresh access token for the configured app.
    static func accessToken(_ client: HMSTestClient) async throws -> String {
        let answer = try await client.send(tokenRequest())
        guard answer.status == 200, let token = answer.json?["access_token"] as? String else {
            throw TestTimeout(what: "an access token (got \(answer.status) \(String(decoding: answer.body, as: UTF8.self)))")
        }
        return token
    }

    /// `POST /v1/{appId}/messages:send` as the relay sends it: a data message to `tokens`.
    static func sendRequest(
        accessToken: String?, tokens: [String], data: String = #"{"message":"hi","sendbird":{"message_id":42}}"#,
        android: [String: String] = ["urgency": "HIGH", "ttl": "86400s"], appID: String = appID, validateOnly: Bool = false
    ) -> TestRequest {
        let message: [String: Any] = ["data": data, "android": android, "token": tokens]
        let body = (try? JSONSerialization.data(withJSONObject: ["validate_only": validateOnly, "message": message])) ?? Data()
        return sendRequest(accessToken: accessToken, body: body, appID: appID)
    }

    /// `messages:send` with `body` as it is.
    static func sendRequest(accessToken: String?, body: Data, appID: String = appID) -> TestRequest {
        var headers = [("content-type", "application/json;charset=utf-8"), ("user-agent", "hms-mock-tests")]
        if let accessToken { headers.append(("authorization", "Bearer \(accessToken)")) }
        return TestRequest(path: "/v1/\(appID)/messages:send", headers: headers, body: body)
    }

    /// Connects to `port` over `transport`, runs `body`, closes.
    static func withConnection<Result>(
        port: Int, transport: HMSTestClient.Transport, _ body: (HMSTestClient) async throws -> Result
    ) async throws -> Result {
        let client = try await HMSTestClient.connect(port: port, transport: transport)
        do {
            let result = try await body(client)
            await client.close()
            return result
        } catch {
            await client.close()
            throw error
        }
    }

    /// Connects over TLS offering `alpn`, fetches a token, runs `body` with both; closes.
    static func withClient<Result>(
        _ server: HMSMockServer, alpn: [String] = bothProtocols, _ body: (HMSTestClient, String) async throws -> Result
    ) async throws -> Result {
        try await withConnection(port: server.port, transport: .tls(alpn: alpn)) { client in
            try await body(client, try await accessToken(client))
        }
    }
}

/// A clock a test moves by hand (access token lifetimes).
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_700_000_000))

    var now: Date { current.withLock { $0 } }

    func advance(seconds: Double) {
        current.withLock { $0 += seconds }
    }
}
