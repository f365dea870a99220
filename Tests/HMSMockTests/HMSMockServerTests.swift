import Foundation
import HMSMock
import TestSupport
import Testing

/// The mock on loopback, driven by NIO's HTTP/1.1 and HTTP/2 clients: tokens, sends, records, and
/// which protocol ALPN chooses.
@Suite(.timeLimit(.minutes(5))) struct HMSMockServerTests {
    @Test func theTokenEndpointIssuesForTheAppsCredentialsAndRefusesOthersWithHuaweisCodes() async throws {
        try await HMSFixture.withServer({ $0.accessTokenLifetimeSeconds = 1800 }) { server in
            try await HMSFixture.withConnection(port: server.port, transport: .tls(alpn: HMSFixture.bothProtocols)) { client in
                let issued = try await client.send(HMSFixture.tokenRequest())
                #expect(issued.status == 200)
                #expect((issued.json?["access_token"] as? String)?.isEmpty == false)
                #expect(issued.json?["expires_in"] as? Int == 1800)
                #expect(issued.json?["token_type"] as? String == "Bearer")

                let refusals: [(TestRequest, Int)] = [
                    (HMSFixture.tokenRequest(secret: "wrong"), 12304),
                    (HMSFixture.tokenRequest(secret: ""), 20171),
                    (HMSFixture.tokenRequest(clientID: "999"), 20003),
                    (HMSFixture.tokenRequest(clientID: "app-1"), 20002),
                    (HMSFixture.tokenRequest(grantType: "authorization_code"), 20182),
                ]
                for (request, subError) in refusals {
                    let refused = try await client.send(request)
                    #expect(refused.status == 400)
                    #expect(refused.json?["error"] as? Int == 1101)
                    #expect(refused.json?["sub_error"] as? Int == subError)
                }
                #expect(try await client.send(TestRequest(method: .GET, path: "/oauth2/v3/token")).status == 405)
            }
            #expect(server.stats.tokensIssued == 1)
            #expect(server.stats.tokenRequestsRefused == 5)
        }
    }

    @Test func aValidSendIsAnsweredSuccessAndRecordedInMemoryAndInTheFile() async throws {
        let directory = try TemporaryDirectory()
        let recordPath = directory.path("hms.jsonl")
        try await HMSFixture.withServer({ $0.recordFile = recordPath }) { server in
            try await HMSFixture.withClient(server) { client, accessToken in
                let token = HMSFixture.deviceToken(1)
                let answer = try await client.send(HMSFixture.sendRequest(accessToken: accessToken, tokens: [token]))
                #expect(answer.status == 200)
                #expect(answer.code == "80000000")
                #expect(answer.msg == "Success")
                let requestID = try #require(answer.json?["requestId"] as? String)
                #expect(!requestID.isEmpty && requestID.allSatisfy(\.isNumber))

                let recorded = try await server.waitForMessages(count: 1, timeout: .seconds(30))
                #expect(recorded.count == 1)
                let message = try #require(recorded.first)
                #expect(message.token == token)
                #expect(message.data["message"] == .string("hi"))
                #expect(message.data["sendbird"]?["message_id"] == .integer(42))
                #expect(message.android == RecordedMessage.Android(urgency: "HIGH", ttl: "86400s"))
                #expect(message.httpVersion == "h2")
                #expect(message.requestId == requestID)
                #expect(message.headers["user-agent"] == "hms-mock-tests")

                let lines = try String(contentsOfFile: recordPath, encoding: .utf8).split(separator: "\n")
                #expect(lines.count == 1)
                #expect(try JSONDecoder().decode(RecordedMessage.self, from: Data(lines[0].utf8)) == message)
                #expect(server.stats.messagesAccepted == 1)
                #expect(server.stats.responsesByCode == ["80000000": 1])
            }
        }
    }

    @Test func validateOnlyIsAnsweredButNotRecorded() async throws {
        try await HMSFixture.withServer { server in
            try await HMSFixture.withClient(server) { client, accessToken in
                let answer = try await client.send(
                    HMSFixture.sendRequest(accessToken: accessToken, tokens: [HMSFixture.deviceToken(1)], validateOnly: true))
                #expect(answer.code == "80000000")
                #expect(server.messages.isEmpty)
                #expect(server.stats.messagesValidated == 1)
            }
        }
    }

    @Test func aClientIsServedOverWhatALPNChose() async throws {
        let offers: [([String], String?, String)] = [
            (HMSFixture.bothProtocols, "h2", "h2"),
            (["http/1.1"], "http/1.1", "http/1.1"),
            ([], nil, "http/1.1"),
        ]
        try await HMSFixture.withServer { server in
            for (index, (alpn, negotiated, servedOver)) in offers.enumerated() {
                try await HMSFixture.withClient(server, alpn: alpn) { client, accessToken in
                    #expect(client.negotiatedProtocol == negotiated)
                    // Two sends on one connection: HTTP/1.1 keeps it alive between requests.
                    for n in 0..<2 {
                        let token = HMSFixture.deviceToken(index * 10 + n)
                        let answer = try await client.send(HMSFixture.sendRequest(accessToken: accessToken, tokens: [token]))
                        #expect(answer.code == "80000000", "offering \(alpn)")
                    }
                }
                let recorded = try await server.waitForMessages(count: 2 * (index + 1), timeout: .seconds(30))
                #expect(recorded.suffix(2).allSatisfy { $0.httpVersion == servedOver }, "offering \(alpn)")
            }
            // Each client: a token request and two sends.
            #expect(server.stats.requestsByHTTPVersion == ["h2": 3, "http/1.1": 6])
        }
    }

    @Test func http1OnlyOffersNoH2() async throws {
        try await HMSFixture.withServer({ $0.http1Only = true }) { server in
            #expect(server.applicationProtocols == ["http/1.1"])
            try await HMSFixture.withClient(server, alpn: ["h2"]) { client, accessToken in
                // No protocol in common: TLS goes on without ALPN, and the mock speaks HTTP/1.1.
                #expect(client.negotiatedProtocol == nil)
                let answer = try await client.send(HMSFixture.sendRequest(accessToken: accessToken, tokens: [HMSFixture.deviceToken(1)]))
                #expect(answer.code == "80000000")
            }
            try await HMSFixture.withClient(server, alpn: HMSFixture.bothProtocols) { client, _ in
                #expect(client.negotiatedProtocol == "http/1.1")
            }
            #expect(server.stats.requestsByHTTPVersion["h2"] == nil)
            #expect(try await server.waitForMessages(count: 1, timeout: .seconds(30))[0].httpVersion == "http/1.1")
        }
    }

    @Test func missingUnknownAndOtherAppsTokensAre80200001() async throws {
        try await HMSFixture.withServer { server in
            try await HMSFixture.withClient(server) { client, accessToken in
                let tokens = [HMSFixture.deviceToken(1)]
                let refused = [
                    HMSFixture.sendRequest(accessToken: nil, tokens: tokens),
                    HMSFixture.sendRequest(accessToken: "not-issued", tokens: tokens),
                    HMSFixture.sendRequest(accessToken: accessToken, tokens: tokens, appID: "100000002"),
                ]
                for request in refused {
                    let answer = try await client.send(request)
                    #expect(answer.status == 401)
                    #expect(answer.code == "80200001")
                }
                #expect(server.stats.sendsUnauthenticated == 3)
                #expect(server.messages.isEmpty)
            }
        }
    }

    @Test func anAccessTokenPastItsLifetimeIs80200003AndAFreshOneWorks() async throws {
        let clock = TestClock()
        try await HMSFixture.withServer({
            $0.accessTokenLifetimeSeconds = 600
            $0.now = { clock.now }
        }) { server in
            try await HMSFixture.withClient(server) { client, accessToken in
                let request = HMSFixture.sendRequest(accessToken: accessToken, tokens: [HMSFixture.deviceToken(1)])
                #expect(try await client.send(request).code == "80000000")
                clock.advance(seconds: 599)
                #expect(try await client.send(request).code == "80000000")
                clock.advance(seconds: 1)
                let expired = try await client.send(request)
                #expect(expired.status == 401)
                #expect(expired.code == "80200003")
                let fresh = try await HMSFixture.accessToken(client)
                #expect(
                    try await client.send(HMSFixture.sendRequest(accessToken: fresh, tokens: [HMSFixture.deviceToken(1)])).code
                        == "80000000")
                #expect(server.stats.sendsWithExpiredToken == 1)
            }
        }
    }

    @Test func expiringTokensByTheAdminMakesEveryCurrentToken80200003() async throws {
        try await HMSFixture.withServer { server in
            try await HMSFixture.withClient(server) { client, first in
                let second = try await HMSFixture.accessToken(client)
                server.expireAccessTokens()
                for accessToken in [first, second] {
                    let answer = try await client.send(
                        HMSFixture.sendRequest(accessToken: accessToken, tokens: [HMSFixture.deviceToken(1)]))
                    #expect(answer.status == 401)
                    #expect(answer.code == "80200003")
                }
                let fresh = try await HMSFixture.accessToken(client)
                #expect(
                    try await client.send(HMSFixture.sendRequest(accessToken: fresh, tokens: [HMSFixture.deviceToken(1)])).code
                        == "80000000")
            }
        }
    }

    @Test func anInvalidMessageIsRefusedWithHuaweisCodeAndNotRecorded() async throws {
        try await HMSFixture.withServer { server in
            try await HMSFixture.withClient(server) { client, accessToken in
                let token = HMSFixture.deviceToken(1)
                let cases: [(TestRequest, Int, String)] = [
                    (HMSFixture.sendRequest(accessToken: accessToken, tokens: [token], android: ["urgency": "URGENT"]), 400, "80100001"),
                    (HMSFixture.sendRequest(accessToken: accessToken, tokens: [token], data: "not json"), 400, "80100001"),
                    (HMSFixture.sendRequest(accessToken: accessToken, body: Data("{".utf8)), 400, "80100003"),
                    (HMSFixture.sendRequest(accessToken: accessToken, tokens: []), 400, "80300010"),
                    (
                        HMSFixture.sendRequest(
                            accessToken: accessToken, tokens: [token], data: #"{"m":"\#(String(repeating: "x", count: 4096))"}"#),
                        400, "80300008"
                    ),
                ]
                for (request, status, code) in cases {
                    let answer = try await client.send(request)
                    #expect(answer.status == status)
                    #expect(answer.code == code)
                }
                #expect(server.messages.isEmpty)
                #expect(try await client.send(TestRequest(path: "/v2/elsewhere")).status == 404)
            }
        }
    }
}
