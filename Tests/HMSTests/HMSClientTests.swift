import ConnectionLiveness
import Foundation
@testable import HMS
import HMSMock
import PushCore
import PushSending
import Testing
import TestSupport

/// The HMS client against hms-mock on loopback (swift-nio there, AsyncHTTPClient here), over
/// HTTP/2 and, with the mock offering only HTTP/1.1, over HTTP/1.1: what Huawei documents
/// (HTTPS) in both forms it might take.
@Suite(.timeLimit(.minutes(5))) struct HMSClientTests {
    static let appID = "100000001"
    static let secret = "hms-client-tests-secret"

    static func token(_ n: Int) -> String { "IQAAAACy0kYkAAB\(n)x" + String(repeating: "q", count: 110) }

    static func withMock(http1Only: Bool = false, _ body: (HMSMockServer, HMSClient) async throws -> Void) async throws {
        let server = try HMSMockServer(
            configuration: HMSMockConfiguration(
                tlsCertificatePath: Repository.devCert("server.pem"), tlsKeyPath: Repository.devCert("server.key"), appID: appID,
                clientSecret: secret, http1Only: http1Only))
        try await server.start()
        let endpoint = URL(string: "https://localhost:\(server.port)")!
        let client = try HMSClient(
            configuration: HMSClientConfiguration(
                appID: appID, clientSecret: secret, endpoint: endpoint, tokenURL: endpoint.appendingPathComponent("oauth2/v3/token"),
                caFile: Repository.devCert("ca.pem"), connections: 2,
                // Not the liveness tests': a pause of the in-process mock on a loaded machine must not cost a connection.
                liveness: LivenessSettings(stallPingInterval: .seconds(60), pingTimeout: .seconds(60))))
        try await withTeardown {
            try await body(server, client)
        } teardown: {
            await client.shutdown()
            try await server.shutdown()
        }
    }

    static func body(_ n: Int, ttl: Int64 = 3600) -> [UInt8] {
        HMSMessage.body(data: Array(#"{"message":"hi \#(n)","sendbird":"{}"}"#.utf8), token: token(n), ttlSeconds: ttl)
    }

    @Test(arguments: [false, true]) func sendsADataMessageWithOneTokenFetch(http1Only: Bool) async throws {
        try await Self.withMock(http1Only: http1Only) { server, client in
            for n in 1...3 {
                let response = try await client.send(body: Self.body(n))
                #expect(response.status == 200)
                #expect(response.code == .success)
                #expect(response.outcome(token: Self.token(n), startedAtMs: 0) == .delivered(providerID: response.requestID))
            }
            let messages = try await server.waitForMessages(count: 3, timeout: .seconds(60))
            #expect(messages.map(\.token) == (1...3).map(Self.token))
            #expect(messages.first?.data == .object(["message": .string("hi 1"), "sendbird": .string("{}")]))
            #expect(messages.first?.android?.urgency == "HIGH")
            #expect(messages.first?.android?.ttl == "3600s")
            #expect(server.stats.tokensIssued == 1, "one token exchange for every send")
            let version = http1Only ? "http/1.1" : "h2"
            #expect(Set(messages.map(\.httpVersion)) == [version], "AsyncHTTPClient took what the server offered")
            #expect(http1Only ? client.statistics.http1 == 3 : client.statistics.http2 == 3)
        }
    }

    @Test func anExpiredAccessTokenIsRenewedOnce() async throws {
        try await Self.withMock { server, client in
            _ = try await client.send(body: Self.body(1))
            server.expireAccessTokens()
            let response = try await client.send(body: Self.body(2))
            #expect(response.code == .success)
            #expect(server.stats.tokensIssued == 2)
            #expect(server.stats.sendsWithExpiredToken == 1)
        }
    }

    /// Each fault as the sender classifies it (`HMSSender.result`): a dead token, flow control, an
    /// internal error and refused credentials.
    @Test func faultsAreClassified() async throws {
        try await Self.withMock { server, client in
            let sender = HMSSender(client: client)
            func outcome(_ n: Int) async -> PushSendResult {
                await withCheckedContinuation { continuation in
                    sender.submit(
                        OutgoingPush(
                            pushID: UUID(), deviceToken: Self.token(n), payload: Array(#"{"message":"x"}"#.utf8), pushType: "hms",
                            priority: 10, expiresAtMs: Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000),
                        timeout: .seconds(30)
                    ) { continuation.resume(returning: $0) }
                }
            }
            let delivered = await outcome(1)
            guard case .delivered(let id?) = delivered.outcome else { Issue.record("\(delivered)"); return }
            #expect(!id.isEmpty, "the request id is kept")

            server.markInvalid([Self.token(2)])
            let dead = await outcome(2)
            guard case .tokenDead(.registeredBefore) = dead.outcome else { Issue.record("\(dead)"); return }
            #expect(dead.reason == "80300007")

            server.arm(HMSMockFaults(flowControl: .init(count: 1, retryAfter: 7)))
            let throttled = await outcome(3)
            #expect(throttled.outcome == .retry(after: .seconds(7)))
            #expect(throttled.status == 503)

            server.arm(HMSMockFaults(internalError: 1))
            #expect(await outcome(4).outcome == .retry(after: .zero))
            #expect(await outcome(5).outcome == .delivered(providerID: server.messages.last?.requestId))
        }
    }

    @Test func refusedCredentialsAreSaidAsSuch() async throws {
        try await Self.withMock { server, client in
            server.arm(HMSMockFaults(refuseCredentials: 1))
            await #expect(throws: HMSError.self) { try await client.send(body: Self.body(1)) }
            let result = HMSClient.result(HMSError.accessTokenRefused(status: 400, reason: "x"))
            #expect(result.outcome == .credentialsRefused)
            // The next send fetches again (a refused fetch is not cached) and goes through.
            let again = try await client.send(body: Self.body(1))
            #expect(again.code == .success)
        }
    }

    @Test func anUnavailableTokenEndpointIsTheMomentNotTheCredentials() async throws {
        try await Self.withMock { server, client in
            server.arm(HMSMockFaults(tokenEndpointUnavailable: 1))
            do {
                _ = try await client.send(body: Self.body(1))
                Issue.record("sent without an access token")
            } catch let error as HMSError {
                #expect(error.isRetryable, "\(error)")
                #expect(HMSClient.result(error).outcome == .retry(after: .zero))
            } catch {
                Issue.record("\(error)")
            }
            #expect(HMSClient.result(HMSError.accessTokenRefused(status: 0, reason: "connection refused")).outcome == .retry(after: .zero))
            let again = try await client.send(body: Self.body(1))
            #expect(again.code == .success)
        }
    }

    /// PushCore fits the data map to HMS's limit by counting the body `HMSMessage.body` writes:
    /// the two must agree (exactly, with the longest TTL).
    @Test(arguments: [#"{"message":"plain"}"#, #"{"message":"say \"hi\" \\ é👋","sendbird":"{\"a\":\"\\n\"}"}"#, "{\"m\":\"\u{01}\t\"}"])
    func pushCoreCountsWhatTheBodyHolds(data: String) {
        let token = Self.token(1)
        let longest = HMSMessage.body(data: Array(data.utf8), token: token, ttlSeconds: 9_999_999_999)
        #expect(longest.count - token.utf8.count == HMSMessageSize.bytes(dataJSON: data.utf8))
        let day = HMSMessage.body(data: Array(data.utf8), token: token, ttlSeconds: 86_400)
        #expect(day.count - token.utf8.count <= HMSMessageSize.bytes(dataJSON: data.utf8))
    }
}
