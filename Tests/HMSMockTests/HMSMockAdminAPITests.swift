import Foundation
import HMSMock
import NIOHTTP1
import Testing

/// The admin API over its own plaintext port, as an out-of-process harness drives it.
@Suite(.timeLimit(.minutes(5))) struct HMSMockAdminAPITests {
    static func admin(_ client: HMSTestClient, _ method: HTTPMethod, _ path: String, _ body: String = "") async throws -> TestResponse {
        try await client.send(
            TestRequest(method: method, path: path, headers: [("content-type", "application/json")], body: Data(body.utf8)))
    }

    @Test func faultsInvalidTokensExpiryStatsMessagesAndResetOverHTTP() async throws {
        try await HMSFixture.withServer({ $0.adminPort = 0 }) { server in
            let adminPort = try #require(server.adminPort)
            try await HMSFixture.withConnection(port: adminPort, transport: .plaintext) { admin in
                try await HMSFixture.withClient(server) { client, accessToken in
                    let good = HMSFixture.deviceToken(1)
                    let bad = HMSFixture.deviceToken(2)
                    #expect(try await Self.admin(admin, .POST, "/invalid-tokens", #"{"tokens":["\#(bad)"]}"#).status == 204)
                    let faults = #"{"flow_control":{"count":1,"retry_after":2},"internal_error":1,"delay_ms":0}"#
                    #expect(try await Self.admin(admin, .POST, "/faults", faults).status == 204)
                    let armed = try await Self.admin(admin, .GET, "/faults")
                    #expect(
                        try JSONDecoder().decode(HMSMockFaults.self, from: armed.body)
                            == HMSMockFaults(invalidTokens: [bad], flowControl: .init(count: 1, retryAfter: 2), internalError: 1))

                    let request = HMSFixture.sendRequest(accessToken: accessToken, tokens: [good])
                    #expect(try await client.send(request).status == 503)
                    #expect(try await client.send(request).code == "81000001")
                    #expect(try await client.send(request).code == "80000000")
                    #expect(try await client.send(HMSFixture.sendRequest(accessToken: accessToken, tokens: [bad])).code == "80300007")

                    let stats = try JSONDecoder().decode(HMSMockStats.self, from: try await Self.admin(admin, .GET, "/stats").body)
                    #expect(stats.sendRequests == 4)
                    #expect(stats.messagesAccepted == 1)
                    #expect(stats.requestsByHTTPVersion == ["h2": 5])
                    #expect(stats.responsesByStatus == ["200": 3, "500": 1, "503": 1])
                    let messages = try await Self.admin(admin, .GET, "/messages?since=0")
                    #expect(try JSONDecoder().decode([RecordedMessage].self, from: messages.body).map(\.token) == [good])
                    #expect(try await Self.admin(admin, .GET, "/messages?since=1").body == Data("[]".utf8))

                    #expect(try await Self.admin(admin, .POST, "/expire-tokens").status == 204)
                    #expect(try await client.send(request).code == "80200003")
                    #expect(try await Self.admin(admin, .DELETE, "/faults").status == 204)
                    #expect(try await Self.admin(admin, .POST, "/reset").status == 204)
                    #expect(server.messages.isEmpty)
                    #expect(server.armedFaults == HMSMockFaults())
                }
            }
        }
    }

    @Test func mistakesAreAnsweredWithAnError() async throws {
        try await HMSFixture.withServer({ $0.adminPort = 0 }) { server in
            try await HMSFixture.withConnection(port: try #require(server.adminPort), transport: .plaintext) { admin in
                let cases: [(HTTPMethod, String, String, Int)] = [
                    (.POST, "/faults", #"{"internal_error":"many"}"#, 400),
                    (.POST, "/invalid-tokens", #"{"token":"x"}"#, 400),
                    (.GET, "/messages?since=-1", "", 400),
                    (.GET, "/reset", "", 405),
                    (.GET, "/nowhere", "", 404),
                ]
                for (method, path, body, status) in cases {
                    let answer = try await Self.admin(admin, method, path, body)
                    #expect(answer.status == status, "\(method) \(path)")
                    #expect(answer.json?["error"] is String)
                }
                #expect(server.armedFaults == HMSMockFaults())
            }
        }
    }
}
